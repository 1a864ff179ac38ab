# Fetches one pinned package from the npm registry, checks it against its published integrity
# and unpacks the wanted parts into a build directory. Shared by fetch_tree_sitter_python.cmake
# (the grammar) and fetch_tree_sitter_runtime.cmake (the parser runtime).
#
# Idempotent: a cached tarball whose hash matches is reused, and the unpacked tree is kept while
# its stamp names the same hash, so a configure with nothing to do costs one hash per package.
#
# The caller sets, before calling helionc_fetch_npm_package():
#   HELIONC_NPM_NAME      the package name (tree-sitter-python)
#   HELIONC_NPM_VERSION   the pinned version
#   HELIONC_NPM_INTEGRITY the registry's integrity string (base64 sha512), for messages
#   HELIONC_NPM_SHA512    the same digest in hex (CMake compares hex digests)
#   HELIONC_NPM_PATTERNS  archive paths to unpack (package/src/* ...)
#   HELIONC_NPM_MARKER    a file, relative to package/, that a good unpack must contain

function(helionc_npm_hash_ok file out_var)
  set(ok FALSE)
  if(EXISTS "${file}" AND NOT IS_DIRECTORY "${file}")
    file(SHA512 "${file}" actual)
    if(actual STREQUAL HELIONC_NPM_SHA512)
      set(ok TRUE)
    endif()
  endif()
  set(${out_var} ${ok} PARENT_SCOPE)
endfunction()

function(helionc_npm_fail_hash file)
  file(SHA512 "${file}" actual)
  message(FATAL_ERROR
    "${HELIONC_NPM_NAME} ${HELIONC_NPM_VERSION}: integrity check failed for\n"
    "  ${file}\n"
    "expected sha512 ${HELIONC_NPM_SHA512}\n"
    "  (npm integrity ${HELIONC_NPM_INTEGRITY})\n"
    "actual   sha512 ${actual}\n"
    "The tarball is corrupt or is not ${HELIONC_NPM_NAME}@${HELIONC_NPM_VERSION} from the npm "
    "registry. Delete it (or fix the tarball option) and configure again.")
endfunction()

# `npm pack NAME@VERSION`, or a plain download of the registry tarball where npm is missing.
# The result is hash-checked before it is moved into place, so an interrupted or tampered
# download never becomes the cached tarball.
function(helionc_npm_download dest)
  set(spec "${HELIONC_NPM_NAME}@${HELIONC_NPM_VERSION}")
  get_filename_component(dest_dir "${dest}" DIRECTORY)
  set(tmp_dir "${dest_dir}/.download-${HELIONC_NPM_NAME}")
  file(REMOVE_RECURSE "${tmp_dir}")
  file(MAKE_DIRECTORY "${tmp_dir}")
  set(fetched "${tmp_dir}/${HELIONC_NPM_NAME}-${HELIONC_NPM_VERSION}.tgz")
  set(url "https://registry.npmjs.org/${HELIONC_NPM_NAME}/-/${HELIONC_NPM_NAME}-${HELIONC_NPM_VERSION}.tgz")
  find_program(HELIONC_NPM npm)
  if(HELIONC_NPM)
    message(STATUS "${HELIONC_NPM_NAME}: npm pack ${spec}")
    execute_process(
      COMMAND "${HELIONC_NPM}" pack "${spec}" --pack-destination "${tmp_dir}" --silent
      WORKING_DIRECTORY "${tmp_dir}"
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${fetched}")
      message(FATAL_ERROR
        "${HELIONC_NPM_NAME}: `npm pack ${spec}` failed (exit ${rc}):\n${err}${out}\n"
        "Without network access, download the package elsewhere and pass it with the "
        "tarball option (see grammar/README.md)")
    endif()
  else()
    message(STATUS "${HELIONC_NPM_NAME}: npm not found; downloading ${url}")
    file(DOWNLOAD "${url}" "${fetched}" STATUS status TLS_VERIFY ON)
    list(GET status 0 rc)
    if(NOT rc EQUAL 0)
      list(GET status 1 why)
      message(FATAL_ERROR
        "${HELIONC_NPM_NAME}: download of ${url} failed: ${why}\n"
        "Install npm, or pass a local tarball (see grammar/README.md)")
    endif()
  endif()
  helionc_npm_hash_ok("${fetched}" ok)
  if(NOT ok)
    helionc_npm_fail_hash("${fetched}")
  endif()
  file(RENAME "${fetched}" "${dest}")
  file(REMOVE_RECURSE "${tmp_dir}")
endfunction()

# helionc_fetch_npm_package(<work-dir> <tarball-or-empty> <out-dir-var>): makes
# <work-dir>/NAME-VERSION hold the verified package's wanted files (the archive's package/).
function(helionc_fetch_npm_package work_dir tarball out_var)
  file(MAKE_DIRECTORY "${work_dir}")
  set(base "${HELIONC_NPM_NAME}-${HELIONC_NPM_VERSION}")
  if(tarball)
    if(NOT EXISTS "${tarball}")
      message(FATAL_ERROR "${HELIONC_NPM_NAME}: the local tarball ${tarball} does not exist")
    endif()
    helionc_npm_hash_ok("${tarball}" ok)
    if(NOT ok)
      helionc_npm_fail_hash("${tarball}")
    endif()
  else()
    set(tarball "${work_dir}/${base}.tgz")
    helionc_npm_hash_ok("${tarball}" ok)
    if(NOT ok)
      if(EXISTS "${tarball}")
        message(STATUS "${HELIONC_NPM_NAME}: cached tarball fails its hash; fetching again")
        file(REMOVE "${tarball}")
      endif()
      helionc_npm_download("${tarball}")
    endif()
  endif()

  set(unpacked "${work_dir}/${base}")
  set(stamp "${unpacked}/.helionc-sha512")
  set(stamp_hash "")
  if(EXISTS "${stamp}")
    file(READ "${stamp}" stamp_hash)
  endif()
  if(NOT stamp_hash STREQUAL HELIONC_NPM_SHA512 OR NOT EXISTS "${unpacked}/${HELIONC_NPM_MARKER}")
    message(STATUS "${HELIONC_NPM_NAME}: unpacking ${tarball}")
    set(staging "${work_dir}/.unpack-${HELIONC_NPM_NAME}")
    file(REMOVE_RECURSE "${staging}" "${unpacked}")
    file(ARCHIVE_EXTRACT INPUT "${tarball}" DESTINATION "${staging}"
         PATTERNS ${HELIONC_NPM_PATTERNS})
    if(NOT EXISTS "${staging}/package/${HELIONC_NPM_MARKER}")
      message(FATAL_ERROR "${HELIONC_NPM_NAME}: ${tarball} has no package/${HELIONC_NPM_MARKER}")
    endif()
    file(RENAME "${staging}/package" "${unpacked}")
    file(REMOVE_RECURSE "${staging}")
    file(WRITE "${stamp}" "${HELIONC_NPM_SHA512}")
  endif()
  set(${out_var} "${unpacked}" PARENT_SCOPE)
endfunction()
