#include "verify/build/toolchain.h"

#include <cxxabi.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <regex>

#include "core/hash.h"
#include "core/strings.h"

namespace regrapht::verify {
namespace {

std::string Demangle(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                           std::free);
  return status == 0 && d ? std::string(d.get()) : name;
}

}  // namespace

namespace {

fs::path FindSanitizer(const fs::path& cuda_root) {
  std::error_code ec;
  if (const char* e = std::getenv("REGRAPHT_COMPUTE_SANITIZER"); e && *e) {
    return fs::exists(e, ec) ? fs::path(e) : fs::path();
  }
  if (!cuda_root.empty()) {
    for (const fs::path& p : {cuda_root / "bin" / "compute-sanitizer",
                              cuda_root / "extras" / "compute-sanitizer" / "compute-sanitizer"}) {
      if (fs::exists(p, ec)) return p;
    }
  }
  return FindProgram("compute-sanitizer");
}

}  // namespace

Result<Toolchain> DetectToolchain(CommandRunner* runner) {
  Toolchain tc;
  std::vector<std::string> nvcc_candidates;
  if (const char* e = std::getenv("REGRAPHT_NVCC"); e && *e) nvcc_candidates.push_back(e);
  nvcc_candidates.push_back("nvcc");
  if (const char* h = std::getenv("CUDA_HOME"); h && *h) nvcc_candidates.push_back(std::string(h) + "/bin/nvcc");
  nvcc_candidates.push_back("/usr/local/cuda/bin/nvcc");
  for (const auto& c : nvcc_candidates) {
    fs::path p = FindProgram(c);
    if (!p.empty()) {
      tc.nvcc = p;
      break;
    }
  }
  if (tc.has_nvcc()) {
    std::error_code ec;
    fs::path real = fs::canonical(tc.nvcc, ec);
    tc.cuda_root = (ec ? tc.nvcc : real).parent_path().parent_path();
    CommandSpec spec;
    spec.argv = {tc.nvcc.string(), "--version"};
    spec.limits.wall_seconds = 30;
    RG_ASSIGN_OR_RETURN(CommandResult r, runner->Run(spec));
    std::smatch m;
    std::regex re(R"(V(\d+\.\d+\.\d+))");
    if (std::regex_search(r.stdout_text, m, re)) tc.nvcc_version = m[1].str();
    else tc.nvcc_version = std::string(Trim(r.stdout_text));
    FindCupti(&tc);
  }
  tc.sanitizer = FindSanitizer(tc.cuda_root);
  const char* cxx = std::getenv("CXX");
  tc.cxx = FindProgram(cxx && *cxx ? cxx : "g++");
  if (tc.cxx.empty()) return Status::FailedPrecondition("no host C++ compiler (g++ or $CXX) on PATH");
  CommandSpec spec;
  spec.argv = {tc.cxx.string(), "--version"};
  spec.limits.wall_seconds = 30;
  RG_ASSIGN_OR_RETURN(CommandResult r, runner->Run(spec));
  auto lines = SplitLines(r.stdout_text);
  tc.cxx_version = lines.empty() ? "unknown" : lines[0];
  return tc;
}

void FindCupti(Toolchain* tc) {
  tc->cupti_include.clear();
  tc->cupti_lib.clear();
  if (const char* off = std::getenv("REGRAPHT_NO_CUPTI"); off && *off) return;
  if (tc->cuda_root.empty()) return;
  std::error_code ec;
  for (const fs::path& base : {tc->cuda_root, tc->cuda_root / "extras" / "CUPTI"}) {
    fs::path inc = base / "include", lib;
    if (!fs::exists(inc / "cupti.h", ec)) continue;
    for (const char* l : {"lib64", "lib"}) {
      if (fs::exists(base / l / "libcupti.so", ec)) {
        lib = base / l;
        break;
      }
    }
    if (lib.empty()) continue;
    tc->cupti_include = inc;
    tc->cupti_lib = lib;
    return;
  }
}

Result<std::vector<std::string>> ParseArchs(const std::string& text) {
  std::vector<std::string> out;
  std::regex re(R"(sm_\d{2,3}a?)");
  for (const auto& part : Split(text, ',')) {
    std::string a(Trim(part));
    if (!std::regex_match(a, re)) {
      return Status::InvalidArgument("--arch: \"" + a + "\" is not an architecture like sm_90 or sm_80");
    }
    if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  }
  if (out.empty()) return Status::InvalidArgument("--arch: empty");
  return out;
}

std::vector<std::string> GencodeFlags(const std::vector<std::string>& archs) {
  std::vector<std::string> flags;
  for (const auto& a : archs) {
    std::string num = a.substr(3);
    flags.push_back("-gencode=arch=compute_" + num + ",code=sm_" + num);
  }
  if (!archs.empty()) {
    std::string num = archs.back().substr(3);
    flags.push_back("-gencode=arch=compute_" + num + ",code=compute_" + num);
  }
  return flags;
}

std::vector<KernelResources> ParsePtxasLog(const std::string& log) {
  std::vector<KernelResources> out;
  std::regex entry(R"(Compiling entry function '([^']+)' for '(sm_\w+)')");
  std::regex props(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  std::regex used(R"(Used (\d+) registers)");
  std::regex barriers(R"(used (\d+) barriers)");
  std::regex smem(R"((\d+) bytes smem)");
  std::regex cmem(R"((\d+) bytes cmem\[0\])");
  KernelResources* cur = nullptr;
  for (const auto& line : SplitLines(log)) {
    std::smatch m;
    if (std::regex_search(line, m, entry)) {
      KernelResources k;
      k.kernel = Demangle(m[1].str());
      k.arch = m[2].str();
      out.push_back(k);
      cur = &out.back();
      continue;
    }
    if (!cur) continue;
    if (std::regex_search(line, m, props)) {
      cur->stack_bytes = std::stoll(m[1].str());
      cur->spill_store_bytes = std::stoll(m[2].str());
      cur->spill_load_bytes = std::stoll(m[3].str());
    }
    if (std::regex_search(line, m, used)) {
      cur->registers = std::stoi(m[1].str());
      if (std::regex_search(line, m, barriers)) cur->barriers = std::stoi(m[1].str());
      if (std::regex_search(line, m, smem)) cur->shared_bytes = std::stoll(m[1].str());
      if (std::regex_search(line, m, cmem)) cur->constant_bytes = std::stoll(m[1].str());
    }
  }
  return out;
}

GpuPresence DetectGpu(CommandRunner* runner, const fs::path& dev) {
  GpuPresence g;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dev, ec)) {
    std::string name = e.path().filename().string();
    if (name.size() > 6 && StartsWith(name, "nvidia") &&
        std::all_of(name.begin() + 6, name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      g.present = true;
      g.how = e.path().string();
      return g;
    }
  }
  CommandSpec spec;
  spec.argv = {"nvidia-smi", "-L"};
  spec.limits.wall_seconds = 30;
  auto r = runner->Run(spec);
  if (r.ok() && r->ok()) {
    for (const auto& line : SplitLines(r->stdout_text)) {
      if (StartsWith(line, "GPU ")) {
        g.present = true;
        g.how = "nvidia-smi: " + line;
        return g;
      }
    }
  }
  g.how = "no " + (dev / "nvidia<N>").string() + " device and nvidia-smi lists no GPU";
  return g;
}

std::string HostCpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (StartsWith(line, "model name")) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return std::string(Trim(line.substr(colon + 1)));
    }
  }
  return "unknown";
}

std::string MachineKey(const std::string& cpu_model, const std::string& machine_id) {
  return cpu_model + " | machine " + HashHex(machine_id).substr(0, 16);
}

std::string HostMachineKey() {
  std::string id;
  if (const char* e = std::getenv("REGRAPHT_MACHINE_ID"); e != nullptr) id = std::string(Trim(e));
  for (const char* path : {"/etc/machine-id", "/var/lib/dbus/machine-id"}) {
    if (!id.empty()) break;
    std::ifstream in(path);
    std::string line;
    if (std::getline(in, line)) id = std::string(Trim(line));
  }
  if (id.empty()) {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) == 0) id = std::string("host ") + host;
  }
  return MachineKey(HostCpuModel(), id);
}

}  // namespace regrapht::verify
