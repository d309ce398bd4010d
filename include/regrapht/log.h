// The library's log: its debug, info and warning lines go to stderr (never
// stdout, which is for results), at the level a program sets once.
//
//   SetLogLevel("warn");   // regrapht's default: warnings and errors
//
// Thread safety: SetLogLevel may be called from any thread; lines logged
// meanwhile are logged at the old or the new level.
#pragma once

#include <string>

namespace regrapht {

// Sets the level from a name: "trace", "debug", "info", "warn", "error",
// "critical" or "off"; an unknown name means "off". The first call also
// sends the log to stderr.
void SetLogLevel(const std::string& level);

}  // namespace regrapht
