# Obtains the tree-sitter-python package from the npm registry, checks it against the published
# integrity, and unpacks its src/ into a build directory. Used by grammar/CMakeLists.txt at
# configure time; can also run on its own to prefetch or check a tarball:
#
#   cmake -DDEST=/tmp/grammar [-DTARBALL=path.tgz] -P grammar/fetch_tree_sitter_python.cmake
#
# Idempotent: a cached tarball whose hash matches is reused, and the unpacked tree is kept while
# its stamp names the same hash, so a configure with nothing to do costs one hash of ~1 MB.

# The pinned package. The npm registry publishes its integrity as base64 sha512
# ("sha512-yIM9z0oxKIxT7bAtPOhgoVl6gTXlmlIhue7liFT4oBPF/lha7Ha4dQBS82Av6hMMRZoVnFJI8M6mL+SwWoLD3A==");
# CMake compares hex digests, so the same digest is written here in hex.
set(HELIONC_TSP_VERSION "0.23.6")
set(HELIONC_TSP_INTEGRITY
    "sha512-yIM9z0oxKIxT7bAtPOhgoVl6gTXlmlIhue7liFT4oBPF/lha7Ha4dQBS82Av6hMMRZoVnFJI8M6mL+SwWoLD3A==")
set(HELIONC_TSP_SHA512
    "c8833dcf4a31288c53edb02d3ce860a1597a8135e59a5221b9eee58854f8a013c5fe585aec76b8750052f3602fea130c459a159c5248f0cea62fe4b05a82c3dc")
set(HELIONC_TSP_URL
    "https://registry.npmjs.org/tree-sitter-python/-/tree-sitter-python-${HELIONC_TSP_VERSION}.tgz")

# helionc_tsp_hash_ok(<file> <out-var>): TRUE when <file> exists and has the pinned sha512.
function(helionc_tsp_hash_ok file out_var)
  set(ok FALSE)
  if(EXISTS "${file}" AND NOT IS_DIRECTORY "${file}")
    file(SHA512 "${file}" actual)
    if(actual STREQUAL HELIONC_TSP_SHA512)
      set(ok TRUE)
    endif()
  endif()
  set(${out_var} ${ok} PARENT_SCOPE)
endfunction()

function(helionc_tsp_fail_hash file)
  file(SHA512 "${file}" actual)
  message(FATAL_ERROR
    "tree-sitter-python ${HELIONC_TSP_VERSION}: integrity check failed for\n"
    "  ${file}\n"
    "expected sha512 ${HELIONC_TSP_SHA512}\n"
    "  (npm integrity ${HELIONC_TSP_INTEGRITY})\n"
    "actual   sha512 ${actual}\n"
    "The tarball is corrupt or is not tree-sitter-python@${HELIONC_TSP_VERSION} from the npm "
    "registry. Delete it (or fix HELIONC_GRAMMAR_TARBALL) and configure again.")
endfunction()

# helionc_tsp_download(<dest-file>): `npm pack tree-sitter-python@VERSION`, or a plain download
# of the registry tarball where npm is missing. The result is hash-checked before it is moved
# into place, so an interrupted or tampered download never becomes the cached tarball.
function(helionc_tsp_download dest)
  get_filename_component(dest_dir "${dest}" DIRECTORY)
  set(tmp_dir "${dest_dir}/.download")
  file(REMOVE_RECURSE "${tmp_dir}")
  file(MAKE_DIRECTORY "${tmp_dir}")
  set(fetched "${tmp_dir}/tree-sitter-python-${HELIONC_TSP_VERSION}.tgz")
  find_program(HELIONC_NPM npm)
  if(HELIONC_NPM)
    message(STATUS "tree-sitter-python: npm pack tree-sitter-python@${HELIONC_TSP_VERSION}")
    execute_process(
      COMMAND "${HELIONC_NPM}" pack "tree-sitter-python@${HELIONC_TSP_VERSION}"
              --pack-destination "${tmp_dir}" --silent
      WORKING_DIRECTORY "${tmp_dir}"
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${fetched}")
      message(FATAL_ERROR
        "tree-sitter-python: `npm pack tree-sitter-python@${HELIONC_TSP_VERSION}` failed "
        "(exit ${rc}):\n${err}${out}\n"
        "Without network access, download the package elsewhere and configure with "
        "-DHELIONC_GRAMMAR_TARBALL=/path/to/tree-sitter-python-${HELIONC_TSP_VERSION}.tgz")
    endif()
  else()
    message(STATUS "tree-sitter-python: npm not found; downloading ${HELIONC_TSP_URL}")
    file(DOWNLOAD "${HELIONC_TSP_URL}" "${fetched}" STATUS status TLS_VERIFY ON)
    list(GET status 0 rc)
    if(NOT rc EQUAL 0)
      list(GET status 1 why)
      message(FATAL_ERROR
        "tree-sitter-python: download of ${HELIONC_TSP_URL} failed: ${why}\n"
        "Install npm, or configure with -DHELIONC_GRAMMAR_TARBALL=/path/to/tarball")
    endif()
  endif()
  helionc_tsp_hash_ok("${fetched}" ok)
  if(NOT ok)
    helionc_tsp_fail_hash("${fetched}")
  endif()
  file(RENAME "${fetched}" "${dest}")
  file(REMOVE_RECURSE "${tmp_dir}")
endfunction()

# helionc_fetch_tree_sitter_python(<work-dir> <tarball-or-empty> <out-src-dir-var>):
# makes <work-dir>/tree-sitter-python-VERSION/src hold the package's verified sources.
function(helionc_fetch_tree_sitter_python work_dir tarball out_var)
  file(MAKE_DIRECTORY "${work_dir}")
  if(tarball)
    if(NOT EXISTS "${tarball}")
      message(FATAL_ERROR "HELIONC_GRAMMAR_TARBALL=${tarball} does not exist")
    endif()
    helionc_tsp_hash_ok("${tarball}" ok)
    if(NOT ok)
      helionc_tsp_fail_hash("${tarball}")
    endif()
  else()
    set(tarball "${work_dir}/tree-sitter-python-${HELIONC_TSP_VERSION}.tgz")
    helionc_tsp_hash_ok("${tarball}" ok)
    if(NOT ok)
      if(EXISTS "${tarball}")
        message(STATUS "tree-sitter-python: cached tarball fails its hash; fetching again")
        file(REMOVE "${tarball}")
      endif()
      helionc_tsp_download("${tarball}")
    endif()
  endif()

  set(unpacked "${work_dir}/tree-sitter-python-${HELIONC_TSP_VERSION}")
  set(stamp "${unpacked}/.helionc-sha512")
  set(stamp_hash "")
  if(EXISTS "${stamp}")
    file(READ "${stamp}" stamp_hash)
  endif()
  if(NOT stamp_hash STREQUAL HELIONC_TSP_SHA512
     OR NOT EXISTS "${unpacked}/src/parser.c" OR NOT EXISTS "${unpacked}/src/scanner.c")
    message(STATUS "tree-sitter-python: unpacking ${tarball}")
    set(staging "${work_dir}/.unpack")
    file(REMOVE_RECURSE "${staging}" "${unpacked}")
    file(ARCHIVE_EXTRACT INPUT "${tarball}" DESTINATION "${staging}"
         PATTERNS "package/src/*" "package/LICENSE" "package/package.json")
    if(NOT EXISTS "${staging}/package/src/parser.c")
      message(FATAL_ERROR "tree-sitter-python: ${tarball} has no package/src/parser.c")
    endif()
    file(RENAME "${staging}/package" "${unpacked}")
    file(REMOVE_RECURSE "${staging}")
    file(WRITE "${stamp}" "${HELIONC_TSP_SHA512}")
  endif()
  set(${out_var} "${unpacked}/src" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(NOT DEST)
    message(FATAL_ERROR "usage: cmake -DDEST=dir [-DTARBALL=file.tgz] -P ${CMAKE_CURRENT_LIST_FILE}")
  endif()
  helionc_fetch_tree_sitter_python("${DEST}" "${TARBALL}" src_dir)
  message(STATUS "tree-sitter-python ${HELIONC_TSP_VERSION} sources: ${src_dir}")
endif()
