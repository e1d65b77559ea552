# engine/registry: the engine, rule registry, cost accumulation (the host
# table plugins see), the plugin loader and declarative rule files.
libtl_registry_la_SOURCES += \
	engine/registry/registry.c engine/registry/registry.h \
	engine/registry/engine.c engine/registry/engine.h \
	engine/registry/cost.c engine/registry/cost.h \
	engine/registry/host_help.c engine/registry/host_help.h \
	engine/registry/loader.c \
	engine/registry/rulefile.c engine/registry/rulefile.h \
	engine/registry/rulefile_eval.c \
	engine/registry/packs.c engine/registry/packs.h
