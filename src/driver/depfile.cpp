#include "driver/depfile.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace helionc::driver {

namespace {

// `-MF FILE` or `-MFFILE`: the value of a GCC flag `name` at args[i] (advancing i past a
// separate value), or nullopt when args[i] is not that flag.
std::optional<Expected<std::string>> flag_value(const std::vector<std::string>& args, size_t& i,
                                                std::string_view name) {
  const std::string& arg = args[i];
  if (arg.rfind(name, 0) != 0) return std::nullopt;
  if (arg.size() > name.size()) return Expected<std::string>(arg.substr(name.size()));
  if (i + 1 == args.size()) {
    return Expected<std::string>(Error{fmt::format("missing argument to '{}'", name)});
  }
  return Expected<std::string>(args[++i]);
}

}  // namespace

Expected<std::vector<std::string>> take_gcc_dependency_flags(std::vector<std::string> args,
                                                             DepfileFlags& flags) {
  std::vector<std::string> rest;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-MD") {
      flags.beside_output = true;
    } else if (args[i] == "-MP") {
      flags.phony = true;
    } else if (auto file = flag_value(args, i, "-MF")) {
      if (!*file) return Error{file->error()};
      flags.path = std::move(**file);
    } else if (auto target = flag_value(args, i, "-MT")) {
      if (!*target) return Error{target->error()};
      flags.targets.push_back(std::move(**target));
    } else {
      rest.push_back(std::move(args[i]));
    }
  }
  return rest;
}

Expected<std::optional<DepfileRequest>> resolve_depfile(const DepfileFlags& flags,
                                                        const std::string& output) {
  if (!flags.path && !flags.beside_output) {
    // GCC ignores -MT and -MP without -MD or -MF too; saying so beats writing nothing silently.
    if (flags.any()) return Error{"-MT and -MP need -MD, -MF FILE or --depfile FILE"};
    return std::optional<DepfileRequest>();
  }
  DepfileRequest request;
  request.phony = flags.phony;
  if (flags.path) {
    request.path = *flags.path;
  } else if (output == "-") {
    return Error{
        "-MD names the depfile after the output, which is standard output here: "
        "give -MF FILE"};
  } else {
    request.path = std::filesystem::path(output).replace_extension(".d").string();
  }
  if (!flags.targets.empty()) {
    request.targets = flags.targets;
  } else if (output == "-") {
    return Error{"the depfile's target would be standard output: give -o FILE or -MT TARGET"};
  } else {
    request.targets.push_back(escape_for_make(output));
  }
  return std::optional<DepfileRequest>(std::move(request));
}

std::string escape_for_make(std::string_view path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    const char c = path[i];
    switch (c) {
      case ' ':
      case '\t':
        // Make reads 2N+1 backslashes before a blank as N backslashes and a blank in the name:
        // double the backslashes already there, then add one.
        for (size_t j = i; j > 0 && path[j - 1] == '\\'; --j) out += '\\';
        out += '\\';
        break;
      case '$':
        out += '$';
        break;
      case '#':
      case ':':
        out += '\\';
        break;
      default:
        break;
    }
    out += c;
  }
  return out;
}

std::string render_depfile(const DepfileRequest& request, const std::optional<std::string>& source,
                           const std::vector<std::string>& inputs) {
  // A config given twice is one prerequisite (and one phony rule: Make warns about two).
  std::vector<std::string> unique;
  for (const std::string& input : inputs) {
    if (input != source && std::find(unique.begin(), unique.end(), input) == unique.end()) {
      unique.push_back(input);
    }
  }
  std::vector<std::string> prerequisites;
  if (source) prerequisites.push_back(escape_for_make(*source));
  for (const std::string& input : unique) prerequisites.push_back(escape_for_make(input));

  std::string out = fmt::format("{}:", fmt::join(request.targets, " "));
  for (size_t i = 0; i < prerequisites.size(); ++i) {
    out += i == 0 ? " " : " \\\n ";
    out += prerequisites[i];
  }
  out += '\n';
  if (request.phony) {
    for (const std::string& input : unique) out += fmt::format("\n{}:\n", escape_for_make(input));
  }
  return out;
}

}  // namespace helionc::driver
