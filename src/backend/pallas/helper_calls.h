// Which module helpers (templates/helper_<name>.py.tmpl) a module needs: those its printers
// named, and those whose functions or constants their text calls, read from the templates
// themselves so that a helper that starts calling another needs no table kept beside it.
#pragma once

#include <set>
#include <string>

#include "support/expected.h"
#include "support/templates.h"

namespace helionc::backend::pallas {

// `named` and every helper its members' text uses, transitively. A helper defines the names of
// its top-level `def _name(` and `_NAME =` lines; another helper's text that mentions one uses
// it. An error when a named helper has no template.
Expected<std::set<std::string>> with_called_helpers(const TemplateSet& templates,
                                                    std::set<std::string> named);

}  // namespace helionc::backend::pallas
