# helionc_generate(TARGET name SOURCES k.py... [CONFIGS c.yaml...] [TARGET_TPU tpu-v5e]
#                  [OPTIONS flag...] [OUT_VAR var])
#
# One custom command per kernel file K.py: helionc writes K_pallas.py into the current binary
# directory (keeping K.py's folder below the current source directory) and a depfile beside it,
# which Ninja and Make read through add_custom_command(DEPFILE), so the module is rebuilt
# exactly when the kernel, one of its configs or helionc changes. `name` is a custom target
# (part of ALL) that builds them; OUT_VAR receives the modules' paths.
#
# CONFIGS go to the kernel file of the same stem, as in helionc.mk: K.yaml and K.NAME.yaml
# (one file a kernel) belong to K.py; a config that matches no source is an error. TARGET_TPU
# is helionc's --target; OPTIONS are passed to every compile.
#
# helionc runs in the binary directory with paths relative to it, so the modules' headers and
# diagnostics name the kernels the same way wherever the checkout lies.
function(helionc_generate)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "TARGET;TARGET_TPU;OUT_VAR" "SOURCES;CONFIGS;OPTIONS")
  if(NOT ARG_TARGET OR NOT ARG_SOURCES)
    message(FATAL_ERROR "helionc_generate: TARGET and SOURCES are required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "helionc_generate: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  set(flags ${ARG_OPTIONS})
  if(ARG_TARGET_TPU)
    list(APPEND flags --target ${ARG_TARGET_TPU})
  endif()

  set(configs_left)
  foreach(config IN LISTS ARG_CONFIGS)
    get_filename_component(config "${config}" ABSOLUTE)
    list(APPEND configs_left "${config}")
  endforeach()

  set(outputs)
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(source "${source}" ABSOLUTE)
    get_filename_component(stem "${source}" NAME_WE)
    get_filename_component(folder "${source}" DIRECTORY)
    file(RELATIVE_PATH sub "${CMAKE_CURRENT_SOURCE_DIR}" "${folder}")
    if(sub MATCHES "^\\.\\.")
      set(sub "")  # a source outside the source tree: its module goes to the top
    endif()
    set(output "${CMAKE_CURRENT_BINARY_DIR}/${sub}/${stem}_pallas.py")
    cmake_path(NORMAL_PATH output)

    set(config_flags)
    set(config_files)
    foreach(config IN LISTS configs_left)
      get_filename_component(config_name "${config}" NAME)
      get_filename_component(config_folder "${config}" DIRECTORY)
      if(config_folder STREQUAL folder AND
         (config_name STREQUAL "${stem}.yaml" OR config_name MATCHES "^${stem}\\.[^.]+\\.yaml$"))
        file(RELATIVE_PATH relative "${CMAKE_CURRENT_BINARY_DIR}" "${config}")
        list(APPEND config_flags --config "${relative}")
        list(APPEND config_files "${config}")
      endif()
    endforeach()
    if(config_files)
      list(REMOVE_ITEM configs_left ${config_files})
    endif()

    file(RELATIVE_PATH relative_source "${CMAKE_CURRENT_BINARY_DIR}" "${source}")
    file(RELATIVE_PATH relative_output "${CMAKE_CURRENT_BINARY_DIR}" "${output}")
    get_filename_component(output_folder "${output}" DIRECTORY)
    file(MAKE_DIRECTORY "${output_folder}")
    add_custom_command(
      OUTPUT "${output}"
      COMMAND helionc::helionc ${flags} ${config_flags} -o "${relative_output}"
              --depfile "${relative_output}.d" "${relative_source}"
      DEPENDS "${source}" ${config_files} "$<TARGET_FILE:helionc::helionc>"
      DEPFILE "${output}.d"
      WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
      COMMENT "helionc ${relative_source}"
      VERBATIM)
    list(APPEND outputs "${output}")
  endforeach()

  if(configs_left)
    message(FATAL_ERROR "helionc_generate: no source for the configs ${configs_left} "
                        "(K.yaml and K.NAME.yaml go with K.py)")
  endif()
  add_custom_target(${ARG_TARGET} ALL DEPENDS ${outputs})
  if(ARG_OUT_VAR)
    set(${ARG_OUT_VAR} ${outputs} PARENT_SCOPE)
  endif()
endfunction()

# helionc_tune(TARGET name SOURCES k.py... [TARGET_TPU tpu-v5e] [OPTIONS flag...])
#
# Tuning, by request only: `name` is a custom target outside ALL (`cmake --build . --target
# name`) that runs `helionc --autotune` for every kernel file K.py with a shape list K.shapes
# beside it and rewrites K.yaml in the source tree, the config helionc_generate gives K.py.
# Tuned configs are checked-in artifacts: an ordinary build never re-tunes. Which kernels have
# a shape list is read when CMake configures (reconfigure after adding one). OPTIONS go to the
# search only (`--seed 1`, `--budget 10`).
function(helionc_tune)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "TARGET;TARGET_TPU" "SOURCES;OPTIONS")
  if(NOT ARG_TARGET OR NOT ARG_SOURCES)
    message(FATAL_ERROR "helionc_tune: TARGET and SOURCES are required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "helionc_tune: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  set(flags ${ARG_OPTIONS})
  if(ARG_TARGET_TPU)
    list(APPEND flags --target ${ARG_TARGET_TPU})
  endif()
  set(commands)
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(source "${source}" ABSOLUTE)
    get_filename_component(stem "${source}" NAME_WE)
    get_filename_component(folder "${source}" DIRECTORY)
    if(EXISTS "${folder}/${stem}.shapes")
      list(APPEND commands COMMAND helionc::helionc ${flags} --autotune -q
           --shapes-file "${folder}/${stem}.shapes" --config-out "${folder}/${stem}.yaml"
           "${source}")
    endif()
  endforeach()
  if(NOT commands)
    message(FATAL_ERROR "helionc_tune: none of the sources has a shape list (K.shapes beside K.py)")
  endif()
  add_custom_target(${ARG_TARGET} ${commands} COMMENT "helionc --autotune" VERBATIM)
endfunction()
