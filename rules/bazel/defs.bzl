"""helion_pallas_library: Helion kernels compiled by helionc into an importable py_library.

    load("@helionc//:defs.bzl", "helion_pallas_library")

    helion_pallas_library(
        name = "kernels",
        srcs = ["softmax.py", "bias_gelu.py"],
        configs = ["softmax.yaml"],        # K.yaml and K.NAME.yaml go with K.py
        target = "tpu-v5e",               # helionc --target (default: helionc's)
        kernels = {"softmax.py": "softmax"},  # optional: one kernel of a file (--kernel)
    )

One action per kernel file, K.py -> K_pallas.py in the package's output folder, with the
kernel file, its configs and helionc as its only inputs and the module as its only output.
helionc reads nothing else (its templates are built in), writes no time, host or absolute path,
and names the inputs by their execroot-relative paths, so the action runs in a sandbox or on a
remote executor and its result is cached across machines. Users depend on `name` and write
`import softmax_pallas` (the package's folder is on the import path) for kernels in the
package's own folder.
"""

def _config_matches(config, src):
    stem = src.basename[:-len(".py")]
    if config.dirname != src.dirname:
        return False
    name = config.basename
    if name == stem + ".yaml":
        return True
    middle = name[len(stem) + 1:-len(".yaml")]
    return (name.startswith(stem + ".") and name.endswith(".yaml") and
            middle != "" and "." not in middle)

def _helion_pallas_modules_impl(ctx):
    configs_left = list(ctx.files.configs)
    kernels = dict(ctx.attr.kernels)
    outputs = []
    for src in ctx.files.srcs:
        if not src.basename.endswith(".py"):
            fail("helion_pallas_library: %s is not a .py kernel file" % src.short_path)
        configs = [c for c in ctx.files.configs if _config_matches(c, src)]
        for c in configs:
            configs_left.remove(c)
        # K.py's path below the package, so kernels of two folders cannot collide.
        relative = src.short_path[len(ctx.label.package) + 1:] if ctx.label.package else src.short_path
        out = ctx.actions.declare_file(relative[:-len(".py")] + "_pallas.py")
        args = ctx.actions.args()
        if ctx.attr.target:
            args.add("--target", ctx.attr.target)
        for c in configs:
            args.add("--config", c)
        kernel = kernels.pop(src.basename, None)
        if kernel:
            args.add("--kernel", kernel)
        args.add_all(ctx.attr.helionc_flags)
        args.add("--color", "never")
        args.add("-o", out)
        args.add(src)
        ctx.actions.run(
            executable = ctx.executable.helionc,
            arguments = [args],
            inputs = [src] + configs,
            outputs = [out],
            mnemonic = "HelionC",
            progress_message = "helionc %s" % src.short_path,
        )
        outputs.append(out)
    if configs_left:
        fail("helion_pallas_library: no kernel file for the configs %s (K.yaml and K.NAME.yaml go with K.py)" %
             [c.short_path for c in configs_left])
    if kernels:
        fail("helion_pallas_library: `kernels` names files that are not in srcs: %s" % kernels.keys())
    return [DefaultInfo(files = depset(outputs))]

helion_pallas_modules = rule(
    implementation = _helion_pallas_modules_impl,
    doc = "The modules helionc writes for `srcs` (helion_pallas_library wraps them).",
    attrs = {
        "srcs": attr.label_list(allow_files = [".py"], mandatory = True),
        "configs": attr.label_list(allow_files = [".yaml"]),
        "target": attr.string(doc = "helionc --target; empty: helionc's default"),
        "kernels": attr.string_dict(doc = "kernel file name -> the one kernel to compile"),
        "helionc_flags": attr.string_list(doc = "more helionc flags, e.g. -Werror"),
        "helionc": attr.label(
            default = Label("//:helionc"),
            executable = True,
            cfg = "exec",
            allow_single_file = True,
        ),
    },
)

def helion_pallas_library(name, srcs, configs = [], target = "", kernels = {}, helionc_flags = [],
                          helionc = None, deps = [], visibility = None, **kwargs):
    """A py_library of the modules helionc writes for `srcs` (see the file's docstring).

    `helionc`: another compiler than the installed one, e.g. a prebuilt binary checked in or
    fetched by the workspace (a label of an executable file)."""
    if helionc != None:
        kwargs["helionc"] = helionc
    helion_pallas_modules(
        name = name + "_modules",
        srcs = srcs,
        configs = configs,
        target = target,
        kernels = kernels,
        helionc_flags = helionc_flags,
        visibility = ["//visibility:private"],
        **kwargs
    )
    native.py_library(
        name = name,
        srcs = [":" + name + "_modules"],
        imports = ["."],
        deps = deps,
        visibility = visibility,
    )
