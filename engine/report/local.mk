# engine/report: each report's model next to its writer (flops, tree,
# profile, devices, roofline + SVG, mfu, the one-screen report).
libtl_report_la_SOURCES += \
	engine/report/reports.h engine/report/report_util.c \
	engine/report/write_flops.c engine/report/flops_sum.c engine/report/flops_sum.h \
	engine/report/write_comm.c engine/report/write_comm.h \
	engine/report/jtree.c engine/report/jtree.h engine/report/merge.c \
	engine/report/ranks.c engine/report/merge_join.c engine/report/merge_join.h \
	engine/report/merge_check.c engine/report/merge_check.h \
	engine/report/tree.c engine/report/tree_write.c \
	engine/report/profile.c engine/report/profile_write.c \
	engine/report/devices.c engine/report/devices_file.c \
	engine/report/roofline.c engine/report/roofline_write.c engine/report/svg.c \
	engine/report/mfu.c engine/report/mfu_write.c \
	engine/report/report.c
libtl_report_la_SOURCES += engine/report/plugin_write.c
# the diff report (tlcost diff A B): alignment model, CI conditions, writers
libtl_report_la_SOURCES += engine/report/diff/diff_int.h engine/report/diff/diff.c \
	engine/report/diff/diff_cond.c engine/report/diff/diff_write.c \
	engine/report/diff/diff_partial.c

# tlcost html: the page (engine/report/html.c) and its inline style and
# script, embedded at build time by tools/html_embed.awk.
libtl_report_la_SOURCES += engine/report/html.c engine/report/html_assets.h
nodist_libtl_report_la_SOURCES = engine/report/html_assets.c
CLEANFILES += engine/report/html_assets.c
EXTRA_DIST += engine/report/html_page.css engine/report/html_page.js tools/html_embed.awk
engine/report/html_assets.c: $(srcdir)/engine/report/html_page.css \
		$(srcdir)/engine/report/html_page.js $(srcdir)/tools/html_embed.awk
	$(AM_V_GEN)$(MKDIR_P) engine/report && \
	$(AWK) -f $(srcdir)/tools/html_embed.awk $(srcdir)/engine/report/html_page.css \
		$(srcdir)/engine/report/html_page.js > $@.tmp && mv $@.tmp $@
libtl_report_la_SOURCES += engine/report/annotate.h engine/report/annotate.c \
	engine/report/annotate_write.c
libtl_report_la_SOURCES += engine/report/steps.c engine/report/steps_write.c engine/report/steps_impl.h
