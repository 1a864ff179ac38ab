# One line per library with unit tests (sources in tests/unit/<name>/).
helionc_unit_test(parse LIBS helionc_parse)
helionc_unit_test(support LIBS helionc_support helionc_support_embed_testdata)
helionc_unit_test(autotune LIBS helionc_autotune helionc_yaml_cpp)
helionc_unit_test(ir LIBS helionc_ir)
helionc_unit_test(ops LIBS helionc_ops)
helionc_unit_test(frontend LIBS helionc_frontend)
# Kernels built by hand, shared by the passes' and the backend's tests.
add_library(helionc_test_kernels STATIC ${CMAKE_CURRENT_SOURCE_DIR}/unit/passes/kernels/test_kernels.cpp)
target_include_directories(helionc_test_kernels PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/unit)
target_link_libraries(helionc_test_kernels PUBLIC helionc_ir)
helionc_unit_test(passes LIBS helionc_passes helionc_test_kernels)
helionc_unit_test(backend LIBS helionc_backend_pallas helionc_test_kernels)
helionc_unit_test(reference LIBS helionc_backend_reference helionc_test_kernels)
helionc_unit_test(driver LIBS helionc_driver)
helionc_unit_test(resources LIBS helionc_autotune helionc_backend_pallas helionc_frontend helionc_parse)
# legal_block_test runs the prelude's `_legal_block` with Python 3 and compares.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
target_compile_definitions(unit_resources PRIVATE HELIONC_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                                                  HELIONC_PYTHON="${Python3_EXECUTABLE}")
