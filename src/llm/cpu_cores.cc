#include "llm/cpu_cores.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <utility>

namespace regrapht::llm {

int CountPhysicalCores(const fs::path& cpu_dir) {
  std::set<std::pair<std::string, std::string>> cores;
  for (int cpu = 0; cpu < 4096; ++cpu) {
    fs::path topo = cpu_dir / ("cpu" + std::to_string(cpu)) / "topology";
    std::ifstream core(topo / "core_id"), pkg(topo / "physical_package_id");
    if (!core) break;
    std::string c, p;
    core >> c;
    pkg >> p;
    cores.insert({p, c});
  }
  return static_cast<int>(cores.size());
}

int PhysicalCores() {
  int n = CountPhysicalCores("/sys/devices/system/cpu");
  if (n > 0) return n;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace regrapht::llm
