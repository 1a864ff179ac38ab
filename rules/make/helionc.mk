# helionc.mk: Make rules that compile Helion kernels into Pallas modules with helionc.
# Installed as PREFIX/share/helionc/helionc.mk; include it after setting HELIONC_KERNELS:
#
#   HELIONC_KERNELS := $(wildcard kernels/*.py)
#   include /usr/local/share/helionc/helionc.mk
#   all: $(HELIONC_MODULES)
#
# Each kernel file K.py (a K_pallas.py in HELIONC_KERNELS is left out) becomes K_pallas.py beside it (the pattern rule `%_pallas.py: %.py`),
# with K.d, helionc's dependency file, beside that: it names every file that went into the
# module (the kernel, its configs, templates), so the module is rebuilt exactly when one of
# them changes, and its phony rules (-MP) keep a deleted config from breaking the build.
#
# Variables (set them before the include, or on the command line):
#   HELIONC          the compiler; default: the helionc installed with this file, else `helionc`
#   HELIONC_FLAGS    flags for every compile (`--target tpu-v5e -Werror`)
#   HELIONC_CONFIGS_K  the configs of kernel file K.py (K as in HELIONC_KERNELS, without .py);
#                    default, by convention: K.yaml and K.*.yaml beside it (one config a kernel)
#
# Defined here: HELIONC_MODULES (the modules of HELIONC_KERNELS), HELIONC_DEPFILES, the
# target `helionc-clean` (removes both) and `helionc-tune` (below: by request only). A failed compile writes nothing (helionc never leaves a
# partial or stale-but-newer module), so Make retries it on the next run.

_helionc_mk_dir := $(dir $(lastword $(MAKEFILE_LIST)))
_helionc_installed := $(wildcard $(_helionc_mk_dir)../../bin/helionc)
HELIONC ?= $(if $(_helionc_installed),$(_helionc_installed),helionc)

# The modules written beside the kernels are no kernels: `$(wildcard kernels/*.py)` also
# finds them from the second build on.
_helionc_kernels := $(filter-out %_pallas.py,$(HELIONC_KERNELS))
HELIONC_MODULES := $(_helionc_kernels:.py=_pallas.py)
HELIONC_DEPFILES := $(_helionc_kernels:.py=_pallas.d)

# The configs of kernel stem $(1): an explicit HELIONC_CONFIGS_<stem>, or the convention.
helionc_configs = $(if $(filter-out undefined,$(origin HELIONC_CONFIGS_$(1))),$(HELIONC_CONFIGS_$(1)),$(sort $(wildcard $(1).yaml $(1).*.yaml)))

# The compiler itself is a prerequisite when it is a file (a new helionc writes new modules).
_helionc_binary := $(firstword $(wildcard $(HELIONC)) $(shell command -v $(HELIONC) 2>/dev/null))

# The targets defined here must not become the includer's default goal.
_helionc_default_goal := $(.DEFAULT_GOAL)

# Explicit prerequisites per module: configs that appear later are picked up even though the
# last depfile could not name them.
$(foreach k,$(_helionc_kernels),$(eval $(k:.py=_pallas.py): $(call helionc_configs,$(k:.py=)) $(_helionc_binary)))

%_pallas.py: %.py
	$(HELIONC) $(HELIONC_FLAGS) $(addprefix --config ,$(call helionc_configs,$*)) -MD -MP -o $@ $<

.PHONY: helionc-clean
helionc-clean:
	rm -f $(HELIONC_MODULES) $(HELIONC_DEPFILES)

# Tuning, by request only: `make helionc-tune` runs `helionc --autotune` for every kernel file
# K.py with a shape list K.shapes beside it (one call a line, as `--shapes-file` reads it) and
# rewrites K.yaml, the config the pattern rule then picks up by convention. Tuned configs are
# checked-in artifacts: no ordinary target depends on this one, so a build never re-tunes.
# HELIONC_TUNE_FLAGS adds flags to the search only (`--seed 1 --budget 10`).
_helionc_tunable := $(foreach k,$(_helionc_kernels),$(if $(wildcard $(k:.py=.shapes)),$(k)))

.PHONY: helionc-tune
helionc-tune:
	$(foreach k,$(_helionc_tunable),$(HELIONC) $(HELIONC_FLAGS) $(HELIONC_TUNE_FLAGS) --autotune -q --shapes-file $(k:.py=.shapes) --config-out $(k:.py=.yaml) $(k) &&) true

-include $(HELIONC_DEPFILES)

.DEFAULT_GOAL := $(_helionc_default_goal)
