# Obtains the tree-sitter parser runtime from the npm registry: the C library vendored in the
# `tree-sitter` package (Node.js bindings; only vendor/tree-sitter/lib is unpacked), checked
# against the published integrity. Used by grammar/CMakeLists.txt at configure time; can also run
# on its own:
#
#   cmake -DDEST=/tmp/runtime [-DTARBALL=path.tgz] -P grammar/fetch_tree_sitter_runtime.cmake
#
# Why not Debian's libtree-sitter 0.20.7: it stores a node's child count in 16 bits, so a node
# with 65,536 or more children (70,000 comment lines, 100,000 unclosed brackets) corrupts the
# heap while it is parsed, before helionc could look at the tree (tree-sitter fixed it in
# commit 67d13cf, "Fix integer size of subtree's child count field"). The library vendored in
# tree-sitter@0.20.6 is 0.20.7 with the fixes made before 0.20.8, that one among them, for the
# same grammar ABIs (13-14).

include(${CMAKE_CURRENT_LIST_DIR}/npm_package.cmake)

set(HELIONC_TS_RUNTIME_PACKAGE_VERSION "0.20.6")

# helionc_fetch_tree_sitter_runtime(<work-dir> <tarball-or-empty> <out-lib-dir-var>):
# makes <work-dir>/tree-sitter-VERSION/vendor/tree-sitter/lib hold the runtime's sources
# (src/lib.c, the whole library in one file, and include/tree_sitter/api.h).
function(helionc_fetch_tree_sitter_runtime work_dir tarball out_var)
  set(HELIONC_NPM_NAME "tree-sitter")
  set(HELIONC_NPM_VERSION "${HELIONC_TS_RUNTIME_PACKAGE_VERSION}")
  set(HELIONC_NPM_INTEGRITY
      "sha512-GxJodajVpfgb3UREzzIbtA1hyRnTxVbWVXrbC6sk4xTMH5ERMBJk9HJNq4c8jOJeUaIOmLcwg+t6mez/PDvGqg==")
  set(HELIONC_NPM_SHA512
      "1b126875a8d5a5f81bdd4444cf321bb40d61c919d3c556d6557adb0bab24e314cc1f9111301264f4724dab873c8ce25e51a20e98b73083eb7a99ecff3c3bc6aa")
  set(HELIONC_NPM_PATTERNS "package/vendor/tree-sitter/lib/*" "package/vendor/tree-sitter/LICENSE"
                           "package/package.json")
  set(HELIONC_NPM_MARKER "vendor/tree-sitter/lib/src/lib.c")
  helionc_fetch_npm_package("${work_dir}" "${tarball}" unpacked)
  set(${out_var} "${unpacked}/vendor/tree-sitter/lib" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(NOT DEST)
    message(FATAL_ERROR "usage: cmake -DDEST=dir [-DTARBALL=file.tgz] -P ${CMAKE_CURRENT_LIST_FILE}")
  endif()
  helionc_fetch_tree_sitter_runtime("${DEST}" "${TARBALL}" lib_dir)
  message(STATUS "tree-sitter runtime (npm tree-sitter ${HELIONC_TS_RUNTIME_PACKAGE_VERSION}) sources: ${lib_dir}")
endif()
