# cmake -DSOURCE_DIR=... -DOUTPUT=... -P GitRevision.cmake
# Writes OUTPUT, a header defining kGitRevision: `git describe --always --dirty` of SOURCE_DIR,
# HELIONC_GIT_REVISION from the environment when there is no git checkout (a source archive),
# else "unknown". Run at every build (the revision changes without a reconfigure) but rewrites
# the header only when the revision changed, so a no-op build recompiles nothing.
execute_process(
  COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12
  OUTPUT_VARIABLE revision
  OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET
  RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR revision STREQUAL "")
  if(DEFINED ENV{HELIONC_GIT_REVISION})
    set(revision "$ENV{HELIONC_GIT_REVISION}")
  else()
    set(revision "unknown")
  endif()
endif()
set(text "// Generated at build time by cmake/GitRevision.cmake.\n#pragma once\n\n"
         "namespace helionc::driver {\n"
         "inline constexpr const char* kGitRevision = \"${revision}\";\n"
         "}  // namespace helionc::driver\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
