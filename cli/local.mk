# the tlcost command (cli/): one file per subcommand.
bin_PROGRAMS += tlcost
tlcost_CPPFLAGS = $(TLC_I_PUBLIC)
tlcost_SOURCES = cli/cli.h cli/main.c cli/common.c cli/report_args.h cli/report_args.c \
	cli/tool_flops.c cli/tool_ledger.c cli/tool_rules.c cli/tool_plugin.c \
	cli/tool_tree.c cli/tool_profile.c cli/tool_roofline.c cli/tool_devices.c \
	cli/tool_mfu.c cli/tool_report.c cli/tool_join.c
tlcost_LDADD = libtlcost.la
tlcost_SOURCES += cli/tool_merge.c cli/tool_ranks.c cli/input_list.h cli/input_list.c
tlcost_SOURCES += cli/tool_diff.c
tlcost_SOURCES += cli/tool_html.c
tlcost_SOURCES += cli/tool_annotate.c
tlcost_SOURCES += cli/tool_steps.c
