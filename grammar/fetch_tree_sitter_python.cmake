# Obtains the tree-sitter-python package from the npm registry, checks it against the published
# integrity, and unpacks its src/ into a build directory (npm_package.cmake does the work). Used
# by grammar/CMakeLists.txt at configure time; can also run on its own to prefetch or check a
# tarball:
#
#   cmake -DDEST=/tmp/grammar [-DTARBALL=path.tgz] -P grammar/fetch_tree_sitter_python.cmake

include(${CMAKE_CURRENT_LIST_DIR}/npm_package.cmake)

# The pinned package. The npm registry publishes its integrity as base64 sha512; CMake compares
# hex digests, so the same digest is written here in hex.
set(HELIONC_TSP_VERSION "0.23.6")

# helionc_fetch_tree_sitter_python(<work-dir> <tarball-or-empty> <out-src-dir-var>):
# makes <work-dir>/tree-sitter-python-VERSION/src hold the package's verified sources.
function(helionc_fetch_tree_sitter_python work_dir tarball out_var)
  set(HELIONC_NPM_NAME "tree-sitter-python")
  set(HELIONC_NPM_VERSION "${HELIONC_TSP_VERSION}")
  set(HELIONC_NPM_INTEGRITY
      "sha512-yIM9z0oxKIxT7bAtPOhgoVl6gTXlmlIhue7liFT4oBPF/lha7Ha4dQBS82Av6hMMRZoVnFJI8M6mL+SwWoLD3A==")
  set(HELIONC_NPM_SHA512
      "c8833dcf4a31288c53edb02d3ce860a1597a8135e59a5221b9eee58854f8a013c5fe585aec76b8750052f3602fea130c459a159c5248f0cea62fe4b05a82c3dc")
  set(HELIONC_NPM_PATTERNS "package/src/*" "package/LICENSE" "package/package.json")
  set(HELIONC_NPM_MARKER "src/scanner.c")
  helionc_fetch_npm_package("${work_dir}" "${tarball}" unpacked)
  set(${out_var} "${unpacked}/src" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(NOT DEST)
    message(FATAL_ERROR "usage: cmake -DDEST=dir [-DTARBALL=file.tgz] -P ${CMAKE_CURRENT_LIST_FILE}")
  endif()
  helionc_fetch_tree_sitter_python("${DEST}" "${TARBALL}" src_dir)
  message(STATUS "tree-sitter-python ${HELIONC_TSP_VERSION} sources: ${src_dir}")
endif()
