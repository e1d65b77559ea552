# engine/report: each report's model next to its writer (flops, tree,
# profile, devices, roofline + SVG, mfu, the one-screen report).
libtl_report_la_SOURCES += \
	engine/report/reports.h engine/report/report_util.c \
	engine/report/write_flops.c \
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
libtl_report_la_SOURCES += engine/report/steps.c engine/report/steps_write.c engine/report/steps_impl.h
