# The libraries helionc links, as three targets the libraries of src/ link: helionc_fmt,
# helionc_yaml_cpp and helionc_tree_sitter (CLI11 is header-only).
#
# tree-sitter is the runtime grammar/ builds (a static library, tree_sitter_runtime: see
# grammar/README.md for why not Debian's). HELIONC_STATIC_RUNTIME=ON links the others statically
# too (fmt header-only, Debian's .a of yaml-cpp) together with libstdc++ and libgcc, so the binary needs nothing but glibc at
# run time: the Python wheel ships it (pyproject.toml).
find_package(fmt REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 REQUIRED)

add_library(helionc_fmt INTERFACE)
add_library(helionc_yaml_cpp INTERFACE)
add_library(helionc_tree_sitter INTERFACE)
if(HELIONC_STATIC_RUNTIME)
  target_link_libraries(helionc_fmt INTERFACE fmt::fmt-header-only)
  find_library(HELIONC_YAML_CPP_ARCHIVE NAMES libyaml-cpp.a REQUIRED)
  get_target_property(yaml_includes yaml-cpp INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(helionc_yaml_cpp INTERFACE ${yaml_includes})
  target_link_libraries(helionc_yaml_cpp INTERFACE ${HELIONC_YAML_CPP_ARCHIVE})
  add_link_options(-static-libstdc++ -static-libgcc)
else()
  target_link_libraries(helionc_fmt INTERFACE fmt::fmt)
  target_link_libraries(helionc_yaml_cpp INTERFACE yaml-cpp)
endif()
# Defined by grammar/ (added after this file; CMake resolves the name when it generates).
target_link_libraries(helionc_tree_sitter INTERFACE tree_sitter_runtime)
