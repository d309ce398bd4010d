// Ctrl-C, SIGTERM and SIGHUP (a closed terminal or ssh session) for the
// long-running commands (optimize, bench): the first signal asks the command
// to stop cleanly (finish the report, keep the database consistent, write
// the best candidate so far) and exit 128 + signal (130 for SIGINT, 143 for
// SIGTERM, 129 for SIGHUP); a second one, a second or
// more later, ends the process at once with the default action (one sooner
// is the same signal delivered twice, as timeout(1) and Slurm do).
//
// The flag is what searches, model requests and subprocesses poll
// (SearchContext::cancel, ChatRequest::cancel, SubprocessOptions::cancel).
#pragma once

#include <atomic>
#include <string>

namespace regrapht::cli {

// Installs the handlers for SIGINT, SIGTERM and SIGHUP (idempotent).
void InstallInterruptHandler();
// Set once a signal arrived. Never null.
const std::atomic<bool>* InterruptFlag();
// The signal that arrived, or 0.
int InterruptSignal();
// 130 (SIGINT), 143 (SIGTERM), 129 (SIGHUP); REQUIRES InterruptSignal() != 0.
int InterruptExitCode();
// "SIGINT", "SIGTERM" or "SIGHUP".
std::string InterruptName();

}  // namespace regrapht::cli
