# One line per library with unit tests (sources in tests/unit/<name>/).
helionc_unit_test(parse LIBS helionc_parse)
helionc_unit_test(support LIBS helionc_support helionc_support_embed_testdata)
helionc_unit_test(autotune LIBS helionc_autotune)
helionc_unit_test(ir LIBS helionc_ir)
helionc_unit_test(frontend LIBS helionc_frontend)
