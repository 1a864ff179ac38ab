#include "driver/candidate_runner.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "ir/dtype.h"
#include "support/file_io.h"
#include "support/json.h"

namespace helionc::driver {

namespace fs = std::filesystem;

namespace {

std::string json_list(const std::vector<std::string>& items) {
  return fmt::format("[{}]", fmt::join(items, ", "));
}

// A temporary folder for the plan and the modules, removed when the run ends.
class WorkDir {
 public:
  WorkDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = (fs::path(tmp && *tmp ? tmp : "/tmp") / "helionc-search-XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~WorkDir() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string tensor_json(const TensorShape& tensor) {
  std::vector<std::string> dims;
  for (int64_t dim : tensor.dims) dims.push_back(std::to_string(dim));
  return fmt::format("{{\"name\": {}, \"shape\": {}, \"dtype\": {}}}", json_quote(tensor.name),
                     json_list(dims), json_quote(ir::dtype_name(tensor.dtype)));
}

// Runs `argv` with stdout and stderr inherited; its exit status, or -1 when it could not start.
int run_process(const std::vector<std::string>& argv) {
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// HELIONC_MEASURE_RUNNER, HELIONC_COMPILE_RUNNER: a runner other than the installed one.
std::string runner_variable(std::string_view search) {
  std::string variable = fmt::format("HELIONC_{}_RUNNER", search);
  std::transform(variable.begin(), variable.end(), variable.begin(),
                 [](char c) { return static_cast<char>(std::toupper(c)); });
  return variable;
}

}  // namespace

std::string runner_path(std::string_view search) {
  const std::string variable = runner_variable(search);
  if (const char* env = std::getenv(variable.c_str()); env && *env) return env;
  const std::string script = fmt::format("helionc_{}.py", search);
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    const fs::path installed =
        exe.parent_path().parent_path() / "share" / "helionc" / "measure" / script;
    if (fs::exists(installed)) return installed.string();
  }
  return (fs::path(HELIONC_SOURCE_DIR) / "runtime" / "measure" / script).string();
}

std::string aligned_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string text;
  for (const auto& row : rows) {
    std::string line = "  ";
    for (size_t c = 0; c < row.size(); ++c) {
      line += row[c] + (c + 1 < row.size() ? std::string(widths[c] - row[c].size() + 2, ' ') : "");
    }
    text += line + "\n";
  }
  return text;
}

Expected<RunnerResult> run_candidates(const RunnerRequest& request) {
  const std::string what = "--search " + request.search;
  const std::string runner = runner_path(request.search);
  if (!fs::exists(runner)) {
    return Error{fmt::format("{}: the runner `{}` is missing (set {}, or install helionc)", what,
                             runner, runner_variable(request.search))};
  }
  WorkDir work;
  if (work.path().empty()) return Error{what + ": cannot create a temporary folder"};

  // One module per distinct config (calls often share candidates), and the baseline.
  std::map<std::string, std::string> modules;  // config text -> file name
  const auto module_for = [&](const autotune::KernelConfig* config) -> Expected<std::string> {
    const std::string key = config ? autotune::config_flow_yaml(*config) : std::string("<default>");
    if (auto it = modules.find(key); it != modules.end()) return it->second;
    Expected<std::string> text = request.emit(config);
    if (!text) return Error{fmt::format("{}: {}", what, text.error())};
    const std::string name =
        config ? fmt::format("candidate_{}.py", modules.size()) : "baseline.py";
    if (auto written = write_output_file((work.path() / name).string(), *text); !written) {
      return Error{written.error()};
    }
    modules.emplace(key, name);
    return name;
  };

  std::vector<std::string> calls;
  for (const RunnerCall& call : request.calls) {
    std::vector<std::string> tensors, candidates;
    for (const TensorShape& tensor : call.shapes->tensors) tensors.push_back(tensor_json(tensor));
    for (const auto& [candidate, evaluation] : call.candidates) {
      Expected<std::string> module = module_for(&candidate.config);
      if (!module) return Error{module.error()};
      candidates.push_back(fmt::format("{{\"config\": {}, \"module\": {}, \"predicted_us\": {}}}",
                                       json_quote(autotune::config_flow_yaml(candidate.config)),
                                       json_quote(*module), evaluation.time_us));
    }
    std::string baseline;
    if (request.baseline) {
      Expected<std::string> module = module_for(nullptr);
      if (!module) return Error{module.error()};
      baseline = fmt::format(", \"baseline\": {}", json_quote(*module));
    }
    calls.push_back(fmt::format("{{\"call\": {}, \"tensors\": {}{}, \"candidates\": {}}}",
                                json_quote(call.shapes->text), json_list(tensors), baseline,
                                json_list(candidates)));
  }
  const fs::path plan = work.path() / "plan.json";
  std::string fields;
  for (const std::string& field : request.plan_fields) fields += field + ", ";
  const std::string plan_text =
      fmt::format("{{\"kernel\": {}, \"timeout_s\": {}, {}\"calls\": {}}}\n",
                  json_quote(request.kernel), request.timeout_s, fields, json_list(calls));
  if (auto written = write_output_file(plan.string(), plan_text); !written) {
    return Error{written.error()};
  }
  const fs::path results = work.path() / "results.tsv";
  const char* python = std::getenv("HELIONC_PYTHON");
  std::vector<std::string> argv = {python && *python ? python : "python3",
                                   runner,
                                   "--plan",
                                   plan.string(),
                                   "--journal",
                                   request.journal,
                                   "--results",
                                   results.string()};
  if (request.resume) argv.emplace_back("--resume");
  if (request.quiet) argv.emplace_back("--quiet");
  const int status = run_process(argv);
  if (status != 0) {
    return Error{fmt::format("{}: the runner `{}` {}", what, runner,
                             status < 0 ? "could not be started or was killed"
                                        : fmt::format("exited with status {}", status))};
  }

  // results.tsv (helionc_candidates.py): `KEY<TAB>VALUE` facts, then
  // `CALL<TAB>CANDIDATE<TAB>STATUS<TAB>TIME_US<TAB>MESSAGE`, or one `error<TAB>MESSAGE`.
  std::ifstream in(results);
  RunnerResult result;
  result.calls.resize(request.calls.size());
  for (size_t c = 0; c < request.calls.size(); ++c) {
    result.calls[c].resize(request.calls[c].candidates.size());
  }
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::istringstream stream(line);
    for (std::string field; std::getline(stream, field, '\t');) fields.push_back(field);
    if (fields.size() < 2) continue;
    if (fields[0] == "error") return Error{fields[1]};
    if (fields[0].empty() || !std::isdigit(static_cast<unsigned char>(fields[0][0]))) {
      result.facts[fields[0]] = fields[1];
      continue;
    }
    fields.resize(5);
    const size_t c = std::stoul(fields[0]);
    const size_t k = std::stoul(fields[1]);
    if (c >= result.calls.size() || k >= result.calls[c].size()) continue;
    CandidateVerdict& verdict = result.calls[c][k];
    verdict.status = fields[2];
    if (!fields[3].empty()) verdict.time_us = std::stod(fields[3]);
    verdict.message = fields[4];
  }
  if (result.facts.empty()) {
    return Error{fmt::format("{}: the runner `{}` wrote no results", what, runner)};
  }
  return result;
}

std::optional<FoundRun> run_found_calls(
    RunnerRequest request, const std::vector<ShapeSet>& shapes,
    const std::vector<std::optional<autotune::CallResult>>& found,
    std::vector<std::string>& failures) {
  FoundRun run;
  for (size_t i = 0; i < found.size(); ++i) {
    if (!found[i]) continue;
    request.calls.push_back({&shapes[i], found[i]->top});
    run.calls.push_back(i);
  }
  Expected<RunnerResult> result = run_candidates(request);
  if (!result) {
    failures.push_back(result.error());
    return std::nullopt;
  }
  run.result = std::move(*result);
  return run;
}

}  // namespace helionc::driver
