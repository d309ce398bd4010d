// The sandbox policy for untrusted programs (every candidate, and every
// compile of a candidate's source): what they may see and who they run as.
// docs/trust.md has the threat model.
//
// Policy (bubblewrap): new user, PID, IPC, UTS, cgroup and network
// namespaces; an allow-list of read-only system paths (SystemPaths(): /usr
// and the merged-/usr symlinks, the dynamic loader's cache and
// /etc/alternatives), never "/" and never HOME, the caches or the
// repository; a fresh minimal /dev (plus /dev/nvidia* for GPU programs), a
// fresh /proc, private /tmp and /dev/shm; the run folder read-write at
// kBoxPath; anything else only if the caller names it. When the harness
// runs as root, a candidate run additionally drops to the unprivileged
// kSandboxUid before bubblewrap starts, so even a visible root-only file
// stays unreadable.
#pragma once

#include <string>
#include <vector>

#include "core/fs.h"

namespace regrapht {

inline constexpr const char* kBoxPath = "/box";
inline constexpr unsigned kSandboxUid = 65534;  // "nobody"

struct SandboxRequest {
  fs::path box;                     // bound read-write at kBoxPath (empty: none)
  std::vector<fs::path> readable;   // bound read-only at the same path
  std::vector<fs::path> writable;   // bound read-write at the same path
  bool gpu = false;                 // /dev/nvidia*, /sys and the persistence daemon's socket
};

// The bubblewrap program: $REGRAPHT_BWRAP when set (empty if that file does
// not exist), else bwrap on PATH; empty when there is none.
fs::path BwrapProgram();

// Read-only system paths every sandboxed program sees.
std::vector<std::string> SystemPaths();

// The bubblewrap command-line prefix for `request`; argv follows "--".
std::vector<std::string> BwrapArgs(const fs::path& bwrap, const SandboxRequest& request);

// How candidate programs can be isolated on this machine (probed once).
struct SandboxSupport {
  bool bwrap = false;          // bubblewrap starts with the policy above
  bool unprivileged = false;   // ... also after dropping root to kSandboxUid
  std::string why_not;         // when !bwrap: what failed
};
const SandboxSupport& ProbeSandbox();

// The error for a sandboxed command where ProbeSandbox() says no.
Status SandboxRefusal(const SandboxSupport& support);

// A folder that kSandboxUid may enter, for run folders: <tmp>/regrapht-
// sandbox-<euid>, mode 0711 (no listing). Created on first use.
Result<fs::path> SandboxRunsDir();

// Makes `dir` writable by the sandbox user when the harness runs as root
// (the run folder of an unprivileged run); a no-op otherwise.
Status GiveToSandboxUser(const fs::path& dir);

// Removes cgroups that a killed regrapht process left behind (named
// regrapht-<pid>-<n>, pid no longer alive): their processes are killed
// first. Called once per process before the first cgroup is created.
void CleanStaleCgroups(const std::vector<fs::path>& bases);
// The same for the cgroups beside each of `bases` (its parent's other
// children): a regrapht killed in another session or job left its
// per-command cgroups under that session's cgroup, which the next regrapht,
// started elsewhere, does not own. Only empty ones older than `min_age_s`
// whose pid is gone are removed (rmdir; nothing is killed there: that pid
// may live in another pid namespace).
void CleanStaleSiblingCgroups(const std::vector<fs::path>& bases, double min_age_s);

}  // namespace regrapht
