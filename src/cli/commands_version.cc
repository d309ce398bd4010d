#include <cstdio>

#include "cli/commands.h"

namespace regrapht::cli {

std::function<int()> VersionCommand(CLI::App* sub) {
  (void)sub;
  return [] {
    std::printf("regrapht 0.1.0\n");
    return kExitOk;
  };
}

}  // namespace regrapht::cli
