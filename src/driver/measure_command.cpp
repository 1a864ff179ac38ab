#include "driver/measure_command.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

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
    std::string pattern =
        (fs::path(tmp && *tmp ? tmp : "/tmp") / "helionc-measure-XXXXXX").string();
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

}  // namespace

std::string measure_runner_path() {
  if (const char* env = std::getenv("HELIONC_MEASURE_RUNNER"); env && *env) return env;
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    const fs::path installed =
        exe.parent_path().parent_path() / "share" / "helionc" / "measure" / "helionc_measure.py";
    if (fs::exists(installed)) return installed.string();
  }
  return (fs::path(HELIONC_SOURCE_DIR) / "runtime" / "measure" / "helionc_measure.py").string();
}

Expected<MeasureResult> measure_candidates(const MeasureRequest& request) {
  const std::string runner = measure_runner_path();
  if (!fs::exists(runner)) {
    return Error{
        fmt::format("--search measure: the runner `{}` is missing (set "
                    "HELIONC_MEASURE_RUNNER, or install helionc)",
                    runner)};
  }
  WorkDir work;
  if (work.path().empty()) return Error{"--search measure: cannot create a temporary folder"};

  // One module per distinct config (calls often share candidates), and the baseline.
  std::map<std::string, std::string> modules;  // config text -> file name
  const auto module_for = [&](const autotune::KernelConfig* config) -> Expected<std::string> {
    const std::string key = config ? autotune::config_flow_yaml(*config) : std::string("<default>");
    if (auto it = modules.find(key); it != modules.end()) return it->second;
    Expected<std::string> text = request.emit(config);
    if (!text) return Error{text.error()};
    const std::string name =
        config ? fmt::format("candidate_{}.py", modules.size()) : "baseline.py";
    if (auto written = write_output_file((work.path() / name).string(), *text); !written) {
      return Error{written.error()};
    }
    modules.emplace(key, name);
    return name;
  };

  std::vector<std::string> calls;
  for (const MeasureCall& call : request.calls) {
    Expected<std::string> baseline = module_for(nullptr);
    if (!baseline) return Error{baseline.error()};
    std::vector<std::string> tensors, candidates;
    for (const TensorShape& tensor : call.shapes->tensors) tensors.push_back(tensor_json(tensor));
    for (const auto& [candidate, evaluation] : call.candidates) {
      Expected<std::string> module = module_for(&candidate.config);
      if (!module) return Error{module.error()};
      candidates.push_back(fmt::format("{{\"config\": {}, \"module\": {}, \"predicted_us\": {}}}",
                                       json_quote(autotune::config_flow_yaml(candidate.config)),
                                       json_quote(*module), evaluation.time_us));
    }
    calls.push_back(
        fmt::format("{{\"call\": {}, \"tensors\": {}, \"baseline\": {}, \"candidates\": {}}}",
                    json_quote(call.shapes->text), json_list(tensors), json_quote(*baseline),
                    json_list(candidates)));
  }
  const fs::path plan = work.path() / "plan.json";
  const std::string plan_text =
      fmt::format("{{\"kernel\": {}, \"runs\": {}, \"timeout_s\": {}, \"calls\": {}}}\n",
                  json_quote(request.kernel), request.runs, request.timeout_s, json_list(calls));
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
    return Error{fmt::format("--search measure: the runner `{}` {}", runner,
                             status < 0 ? "could not be started or was killed"
                                        : fmt::format("exited with status {}", status))};
  }

  // results.tsv: `device<TAB>text`, then `call<TAB>candidate<TAB>status<TAB>time_us`.
  std::ifstream in(results);
  MeasureResult result;
  result.calls.resize(request.calls.size());
  for (size_t c = 0; c < request.calls.size(); ++c) {
    result.calls[c].resize(request.calls[c].candidates.size());
  }
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string first, second, state, time;
    std::getline(fields, first, '\t');
    std::getline(fields, second, '\t');
    if (first == "device") {
      result.device = second;
      continue;
    }
    std::getline(fields, state, '\t');
    std::getline(fields, time, '\t');
    const size_t c = std::stoul(first);
    const size_t k = std::stoul(second);
    if (c >= result.calls.size() || k >= result.calls[c].size()) continue;
    result.calls[c][k].status = state;
    if (!time.empty()) result.calls[c][k].time_us = std::stod(time);
  }
  if (result.device.empty()) {
    return Error{fmt::format("--search measure: the runner `{}` wrote no results", runner)};
  }
  return result;
}

}  // namespace helionc::driver
