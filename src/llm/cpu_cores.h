// How many threads the embedded model decodes with by default: one per
// physical core (hyperthreads share a core's arithmetic units).
#pragma once

#include "core/fs.h"

namespace regrapht::llm {

// The distinct (physical_package_id, core_id) pairs under `cpu_dir`'s
// cpuN/topology/ folders, read from cpu0 up to the first missing one; 0 when
// cpu0 has none (no sysfs, or another layout).
int CountPhysicalCores(const fs::path& cpu_dir);

// CountPhysicalCores of /sys/devices/system/cpu, or hardware_concurrency()
// (at least 1) where that counts none.
int PhysicalCores();

}  // namespace regrapht::llm
