// The entry point of the tree-sitter-python grammar (built by grammar/CMakeLists.txt from the npm
// package; the package itself ships no C header). HELIONC_TREE_SITTER_PYTHON_VERSION, defined by
// the tree_sitter_python target, names the pinned version.
#pragma once

#include <tree_sitter/api.h>

#ifdef __cplusplus
extern "C" {
#endif

const TSLanguage* tree_sitter_python(void);

#ifdef __cplusplus
}
#endif
