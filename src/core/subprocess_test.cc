#include "core/subprocess.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include "core/fs.h"
#include "core/hash.h"
#include "core/sandbox.h"
#include "core/strings.h"

namespace regrapht {
namespace {

CommandSpec Sh(const std::string& script) {
  CommandSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  return spec;
}

TEST(SubprocessTest, CapturesOutputAndExitCode) {
  auto runner = NewSubprocessRunner();
  auto r = runner->Run(Sh("echo out; echo err >&2; exit 3"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->stdout_text, "out\n");
  EXPECT_EQ(r->stderr_text, "err\n");
  EXPECT_FALSE(r->ok());
  EXPECT_EQ(r->Describe(), "exit 3");
}

TEST(SubprocessTest, MissingProgramIsAStatus) {
  auto runner = NewSubprocessRunner();
  CommandSpec spec;
  spec.argv = {"definitely-not-a-program-xyz"};
  auto r = runner->Run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kFailedPrecondition);
}

TEST(SubprocessTest, StdinAndOutputCap) {
  auto runner = NewSubprocessRunner();
  CommandSpec spec = Sh("cat; head -c 100000 /dev/zero");
  spec.stdin_data = "abc";
  spec.max_output_bytes = 10;
  auto r = runner->Run(spec);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stdout_text.size(), 10u);
  EXPECT_EQ(r->stdout_text.substr(0, 3), "abc");
  EXPECT_EQ(r->stdout_dropped, 100003u - 10u);
}

TEST(SubprocessTest, WallTimeoutKillsInfiniteLoopAndItsChildren) {
  auto runner = NewSubprocessRunner();
  CommandSpec spec = Sh("sleep 30 & while :; do :; done");
  spec.limits.wall_seconds = 0.5;
  auto r = runner->Run(spec);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  EXPECT_LT(r->wall_ms, 3000);
  EXPECT_EQ(r->Describe().rfind("timed out", 0), 0u);
}

TEST(SubprocessTest, CpuLimitSignals) {
  auto runner = NewSubprocessRunner();
  CommandSpec spec = Sh("while :; do :; done");
  spec.limits.cpu_seconds = 1;
  spec.limits.wall_seconds = 10;
  auto r = runner->Run(spec);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->timed_out);
  EXPECT_TRUE(r->term_signal == SIGXCPU || r->term_signal == SIGKILL) << r->Describe();
}

TEST(SubprocessTest, FileSizeLimit) {
  auto dir = TempDir::Create("rgsp");
  auto runner = NewSubprocessRunner();
  CommandSpec spec = Sh("head -c 1000000 /dev/zero > big");
  spec.cwd = dir->path();
  spec.limits.file_size_bytes = 4096;
  auto r = runner->Run(spec);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->ok());
  EXPECT_LE(fs::file_size(dir->path() / "big"), 4096u);
}

TEST(SubprocessTest, MemoryLimitStopsHog) {
  auto runner = NewSubprocessRunner();
  // python3 is part of the base system here; allocate 2 GiB under a 256 MiB limit.
  CommandSpec spec;
  spec.argv = {"python3", "-c", "x = bytearray(2 << 30); print(len(x))"};
  spec.limits.memory_bytes = 256ll << 20;
  auto r = runner->Run(spec);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->ok()) << r->stdout_text;
}

TEST(SubprocessTest, ForkBombIsContained) {
  if (!CgroupsWork() && !BubblewrapWorks()) {
    GTEST_SKIP() << "neither a writable pids cgroup nor bubblewrap here: fork-bomb containment "
                    "relies on the static checks alone";
  }
  auto dir = TempDir::Create("rgbomb");
  fs::path script = dir->path() / "rg_forkbomb_marker.sh";
  ASSERT_TRUE(WriteFile(script, "f() { f | f & }; f; sleep 100\n").ok());
  auto runner = NewSubprocessRunner();
  CommandSpec spec;
  spec.argv = {"/bin/bash", script.string()};
  spec.sandbox = true;
  spec.cwd = dir->path();
  spec.limits.wall_seconds = 2;
  spec.limits.max_processes = 64;
  auto r = runner->Run(spec);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_LT(r->wall_ms, 15000);
  // Nothing of it may survive.
  usleep(200 * 1000);
  int survivors = std::system("pgrep -f rg_forkbomb_marke[r] >/dev/null");
  EXPECT_NE(survivors, 0) << "fork-bomb processes survived; sandbox=" << r->sandbox;
}

class SandboxTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!BubblewrapWorks()) GTEST_SKIP() << "bubblewrap not available: sandbox tests skipped";
  }
};

TEST_F(SandboxTest, DeniesNetwork) {
  int srv = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ASSERT_EQ(::bind(srv, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(srv, 4), 0);
  socklen_t len = sizeof addr;
  ::getsockname(srv, reinterpret_cast<sockaddr*>(&addr), &len);
  int port = ntohs(addr.sin_port);
  auto runner = NewSubprocessRunner();
  std::string probe = "echo hi > /dev/tcp/127.0.0.1/" + std::to_string(port);
  CommandSpec plain;
  plain.argv = {"/bin/bash", "-c", probe};
  auto outside = runner->Run(plain);
  ASSERT_TRUE(outside.ok());
  EXPECT_TRUE(outside->ok()) << "control: loopback connect should work outside the sandbox";
  CommandSpec boxed = plain;
  boxed.sandbox = true;
  auto inside = runner->Run(boxed);
  ASSERT_TRUE(inside.ok());
  EXPECT_FALSE(inside->ok()) << "network reachable inside the sandbox";
  EXPECT_NE(inside->sandbox.find("bwrap"), std::string::npos);
  ::close(srv);
}

TEST_F(SandboxTest, WritesOnlyInsideItsFolder) {
  auto work = TempDir::Create("rgsbx");
  auto other = TempDir::Create("rgsbx-other", fs::current_path());
  auto runner = NewSubprocessRunner();
  CommandSpec spec;
  spec.sandbox = true;
  spec.cwd = work->path();
  spec.argv = {"/bin/sh", "-c", "echo ok > inside.txt && echo bad > " +
                                    (other->path() / "outside.txt").string()};
  auto r = runner->Run(spec);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->ok());
  EXPECT_TRUE(fs::exists(work->path() / "inside.txt"));
  EXPECT_FALSE(fs::exists(other->path() / "outside.txt"));
}

}  // namespace
}  // namespace regrapht

namespace regrapht {
namespace {

// Standard input is written inside the wait loop: a child that never reads
// it is still killed at its wall limit (it used to block the runner in
// write(2) once the pipe filled, past any limit; `dot` gets whole graphs
// on stdin).
TEST(SubprocessTest, ChildThatReadsNoStdinIsKilledAtItsWallLimit) {
  auto runner = NewSubprocessRunner();
  CommandSpec spec = Sh("sleep 10");
  spec.stdin_data.assign(10 << 20, 'x');
  spec.limits.wall_seconds = 0.5;
  auto r = runner->Run(spec);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->timed_out);
  EXPECT_LT(r->wall_ms, 3000);
}

// A child that takes its input slowly (64 KiB every few milliseconds) gets
// every byte, in order.
TEST(SubprocessTest, SlowReaderGetsAllOfStdin) {
  auto runner = NewSubprocessRunner();
  CommandSpec spec;
  spec.argv = {"python3", "-c",
               "import hashlib, sys, time\n"
               "h = hashlib.sha256(); n = 0\n"
               "while True:\n"
               "    b = sys.stdin.buffer.read(65536)\n"
               "    if not b: break\n"
               "    h.update(b); n += len(b); time.sleep(0.002)\n"
               "print(n, h.hexdigest())\n"};
  std::string data(10 << 20, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>((i * 2654435761u) >> 13);
  spec.stdin_data = data;
  spec.limits.wall_seconds = 60;
  auto r = runner->Run(spec);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->ok()) << r->Describe() << " " << r->stderr_text;
  EXPECT_EQ(r->stdout_text, std::to_string(data.size()) + " " + Sha256Hex(data) + "\n");
}

// A child that exits (or closes its stdin) without reading: the writing
// stops, and no SIGPIPE ends this process.
TEST(SubprocessTest, ChildThatClosesStdinEarly) {
  auto runner = NewSubprocessRunner();
  CommandSpec spec = Sh("exec 0<&-; sleep 0.2; echo done");
  spec.stdin_data.assign(10 << 20, 'x');
  spec.limits.wall_seconds = 10;
  auto r = runner->Run(spec);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->ok()) << r->Describe();
  EXPECT_EQ(r->stdout_text, "done\n");
}

int OpenDescriptors() {
  int n = 0;
  for (const auto& e : fs::directory_iterator("/proc/self/fd")) {
    (void)e;
    ++n;
  }
  return n;
}

// Fails the `fail_pipe`-th pipe2 call (1-based; 0: none) or, with
// `fail_fork`, every fork, as if the process were out of descriptors or
// processes.
class FailingSyscalls : public SubprocessSyscalls {
 public:
  FailingSyscalls(int fail_pipe, bool fail_fork) : fail_pipe_(fail_pipe), fail_fork_(fail_fork) {}
  int Pipe2(int fds[2], int flags) override {
    if (++pipes_ == fail_pipe_) {
      errno = EMFILE;
      return -1;
    }
    return SubprocessSyscalls::Pipe2(fds, flags);
  }
  pid_t Fork() override {
    if (fail_fork_) {
      errno = EAGAIN;
      return -1;
    }
    return SubprocessSyscalls::Fork();
  }

 private:
  int fail_pipe_, pipes_ = 0;
  bool fail_fork_;
};

// A pipe or fork that fails halfway through starting a command is an error
// Status, and every descriptor opened before it is closed again.
TEST(SubprocessTest, NoDescriptorLeaksWhenStartingFails) {
  CommandSpec spec = Sh("echo x");
  spec.records_fd = 3;  // five pipes
  spec.stdin_data = "input";
  const int before = OpenDescriptors();
  for (int fail_pipe = 1; fail_pipe <= 5; ++fail_pipe) {
    FailingSyscalls sys(fail_pipe, false);
    SubprocessOptions o;
    o.syscalls = &sys;
    auto r = NewSubprocessRunner(o)->Run(spec);
    ASSERT_FALSE(r.ok()) << "pipe " << fail_pipe;
    EXPECT_NE(r.status().message().find("pipe failed"), std::string::npos) << r.status().ToString();
    EXPECT_EQ(OpenDescriptors(), before) << "after failing pipe " << fail_pipe;
  }
  FailingSyscalls no_fork(0, true);
  SubprocessOptions o;
  o.syscalls = &no_fork;
  auto r = NewSubprocessRunner(o)->Run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("fork failed"), std::string::npos) << r.status().ToString();
  EXPECT_EQ(OpenDescriptors(), before) << "after a failed fork";
  // And the paths that run: done, timed out, stdin refused, cannot execute.
  FailingSyscalls none(0, false);
  o.syscalls = &none;
  auto runner = NewSubprocessRunner(o);
  ASSERT_TRUE(runner->Run(spec).ok());
  CommandSpec slow = Sh("sleep 10");
  slow.stdin_data.assign(1 << 20, 'x');
  slow.limits.wall_seconds = 0.2;
  ASSERT_TRUE(runner->Run(slow).ok());
  CommandSpec closes = Sh("exec 0<&-; exit 0");
  closes.stdin_data.assign(1 << 20, 'x');
  ASSERT_TRUE(runner->Run(closes).ok());
  auto dir = TempDir::Create("rgfd");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(WriteFile(dir->path() / "noexec", "not a program").ok());
  fs::permissions(dir->path() / "noexec", fs::perms::owner_exec, fs::perm_options::add);
  CommandSpec bad;
  bad.argv = {(dir->path() / "noexec").string()};
  EXPECT_FALSE(runner->Run(bad).ok());
  EXPECT_EQ(OpenDescriptors(), before);
}

// Two threads starting commands at once must not wait on each other.
TEST(SubprocessTest, ConcurrentRunsDoNotDeadlock) {
  auto runner = NewSubprocessRunner();
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 25; ++i) {
        CommandSpec spec;
        spec.argv = {"/bin/sh", "-c", "echo x"};
        spec.limits.wall_seconds = 10;
        auto r = runner->Run(spec);
        if (r.ok() && r->ok() && r->stdout_text == "x\n") ++ok;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 100);
}

}  // namespace
}  // namespace regrapht

namespace regrapht {
namespace {

TEST(SandboxPathsTest, ReadablePathsSurviveThePrivateTmp) {
  if (!BubblewrapWorks()) GTEST_SKIP() << "bubblewrap not available";
  auto data = TempDir::Create("rgro");  // under /tmp, hidden by the sandbox's own /tmp
  ASSERT_TRUE(WriteFile(data->path() / "in.txt", "visible").ok());
  auto work = TempDir::Create("rgwork");
  auto runner = NewSubprocessRunner();
  CommandSpec spec;
  spec.sandbox = true;
  spec.cwd = work->path();
  spec.argv = {"/bin/cat", (data->path() / "in.txt").string()};
  auto hidden = runner->Run(spec);
  ASSERT_TRUE(hidden.ok());
  EXPECT_FALSE(hidden->ok());
  spec.readable = {data->path()};
  auto shown = runner->Run(spec);
  ASSERT_TRUE(shown.ok());
  EXPECT_EQ(shown->stdout_text, "visible");
  spec.argv = {"/bin/sh", "-c", "echo x > " + (data->path() / "w.txt").string()};
  auto write = runner->Run(spec);
  ASSERT_TRUE(write.ok());
  EXPECT_FALSE(write->ok()) << "readable paths must stay read-only";
}

}  // namespace
}  // namespace regrapht

namespace regrapht {
namespace {

// A candidate's view (box run): the allow-list only, never HOME, the caches
// or the repository, and not root.
TEST(SandboxPolicyTest, BoxRunSeesOnlyTheAllowList) {
  if (!BubblewrapWorks()) GTEST_SKIP() << "bubblewrap not available";
  auto runs = SandboxRunsDir();
  ASSERT_TRUE(runs.ok());
  auto box = TempDir::Create("run-", *runs);
  ASSERT_TRUE(box.ok());
  std::vector<std::string> secret = {CacheDir().string(), "/etc/shadow", "/etc/passwd", "/root", "/home",
                                     "/work", "/var", "/opt", "/srv", "/run", "/tmp/regrapht-sandbox-0"};
  if (const char* home = std::getenv("HOME")) secret.push_back(home);
  if (const char* src = std::getenv("REGRAPHT_SOURCE_DIR")) secret.push_back(src);
  std::string script;
  for (const auto& p : secret) script += "test -e '" + p + "' && echo VISIBLE:" + p + "; ";
  script += "id -u; ls /";
  CommandSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.sandbox = true;
  spec.box_cwd = true;
  spec.cwd = box->path();
  auto runner = NewSubprocessRunner();
  auto r = runner->Run(spec);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->stdout_text.find("VISIBLE"), std::string::npos) << r->stdout_text;
  if (::geteuid() == 0) {
    EXPECT_EQ(r->stdout_text.substr(0, 6), "65534\n") << r->stdout_text << r->stderr_text;
    EXPECT_NE(r->sandbox.find("uid-nobody"), std::string::npos) << r->sandbox;
  }
}

TEST(SandboxPolicyTest, RecordsPipeCarriesBytesWithArrivalTimes) {
  if (!BubblewrapWorks()) GTEST_SKIP() << "bubblewrap not available";
  auto runs = SandboxRunsDir();
  ASSERT_TRUE(runs.ok());
  auto box = TempDir::Create("run-", *runs);
  CommandSpec spec;
  spec.argv = {"/bin/sh", "-c", "echo one >&3; sleep 0.2; echo two >&3"};
  spec.sandbox = true;
  spec.box_cwd = true;
  spec.cwd = box->path();
  spec.records_fd = 3;
  auto runner = NewSubprocessRunner();
  auto r = runner->Run(spec);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->records, "one\ntwo\n");
  ASSERT_EQ(r->records_arrivals.size(), 2u);
  EXPECT_GE(r->records_arrivals[1].second - r->records_arrivals[0].second, 150);
}

TEST(SandboxPolicyTest, RecordsOverTheLimitKillTheCommand) {
  CommandSpec spec;
  spec.argv = {"/bin/sh", "-c", "head -c 1000000 /dev/zero >&3; sleep 30"};
  spec.records_fd = 3;
  spec.max_records_bytes = 1000;
  auto runner = NewSubprocessRunner();
  auto r = runner->Run(spec);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->records_overflow);
  EXPECT_LT(r->wall_ms, 10000);
}

TEST(SandboxPolicyTest, UnsandboxedRunsSaySoInCapitals) {
  auto runner = NewSubprocessRunner({SandboxMode::kNone, false});
  CommandSpec spec;
  spec.argv = {"/bin/true"};
  spec.sandbox = true;
  auto r = runner->Run(spec);
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r->sandbox.find(kUnsandboxedNote), std::string::npos);
}

}  // namespace
}  // namespace regrapht

namespace regrapht {
namespace {

// A regrapht process killed with -9 leaves its per-command cgroups behind;
// the next one removes those whose pid is gone (and leaves live ones).
TEST(SandboxPolicyTest, StaleCgroupsAreRemoved) {
  auto base = TempDir::Create("rgcg");  // stands in for a cgroup mount
  ASSERT_TRUE(base.ok());
  pid_t dead = ::fork();
  if (dead == 0) _exit(0);
  ::waitpid(dead, nullptr, 0);
  fs::path stale = base->path() / ("regrapht-" + std::to_string(dead) + "-3");
  fs::path live = base->path() / ("regrapht-" + std::to_string(::getpid()) + "-0");
  fs::path other = base->path() / "someone-else";
  for (const auto& d : {stale, live, other}) ASSERT_TRUE(MakeDirs(d).ok());
  CleanStaleCgroups({base->path()});
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(other));
}

}  // namespace
}  // namespace regrapht

namespace regrapht {
namespace {

// A regrapht killed in another session left its cgroups beside ours: the
// next one removes the empty, old, dead-owner ones there, and nothing else.
TEST(SandboxPolicyTest, StaleSiblingCgroupsAreRemoved) {
  auto root = TempDir::Create("rgcgsib");  // stands in for a cgroup hierarchy
  ASSERT_TRUE(root.ok());
  pid_t dead = ::fork();
  if (dead == 0) _exit(0);
  ::waitpid(dead, nullptr, 0);
  fs::path ours = root->path() / "session-a", theirs = root->path() / "session-b";
  fs::path stale = theirs / ("regrapht-" + std::to_string(dead) + "-0");
  fs::path busy = theirs / ("regrapht-" + std::to_string(dead) + "-1");  // a process still in it
  fs::path live = theirs / ("regrapht-" + std::to_string(::getpid()) + "-0");
  fs::path odd = theirs / ("regrapht-" + std::to_string(dead) + "-x");
  for (const auto& d : {ours, stale, busy, live, odd}) ASSERT_TRUE(MakeDirs(d).ok());
  ASSERT_TRUE(WriteFile(busy / "cgroup.procs", "123\n").ok());  // rmdir fails, as on a cgroup with tasks
  CleanStaleSiblingCgroups({ours}, 3600);  // too young yet
  EXPECT_TRUE(fs::exists(stale));
  CleanStaleSiblingCgroups({ours / ""}, 0);  // a trailing slash names the same base
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(busy));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(odd));
  EXPECT_TRUE(fs::exists(ours));
}

// The real thing, where this machine lets us make cgroups: a process running
// a command in its cgroup is killed with -9; the cgroup (and the command in
// it) outlive it; the next start's clean-up kills the command and removes it.
TEST(SandboxPolicyTest, KillNineLeavesNoCgroupAfterTheNextStart) {
  if (!CgroupsWork()) {
    GTEST_SKIP() << "SKIPPED: no writable pids cgroup here; the clean-up is covered on folders by "
                    "StaleCgroupsAreRemoved";
  }
  std::vector<fs::path> bases = CgroupBases();
  ASSERT_FALSE(bases.empty());
  pid_t child = ::fork();
  if (child == 0) {
    auto runner = NewSubprocessRunner({SandboxMode::kNone, true});
    CommandSpec spec;
    spec.argv = {"/bin/sleep", "60"};
    spec.limits.wall_seconds = 60;
    spec.limits.max_processes = 8;
    spec.limits.memory_bytes = int64_t{256} << 20;
    (void)runner->Run(spec);
    _exit(0);
  }
  const std::string prefix = "regrapht-" + std::to_string(child) + "-";
  auto find = [&] {
    std::vector<fs::path> found;
    for (const auto& base : bases) {
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(base, ec)) {
        if (StartsWith(e.path().filename().string(), prefix)) found.push_back(e.path());
      }
    }
    return found;
  };
  auto has_task = [](const fs::path& dir) {
    std::ifstream in(dir / "cgroup.procs");
    pid_t p;
    return static_cast<bool>(in >> p);
  };
  std::vector<fs::path> made;
  for (int i = 0; i < 500; ++i) {
    made = find();
    if (!made.empty() && has_task(made.front())) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_FALSE(made.empty()) << "the child made no cgroup named " << prefix << "*";
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  EXPECT_FALSE(find().empty());  // left behind, its sleep still in it
  CleanStaleCgroups(bases);      // what the next regrapht does first
  EXPECT_TRUE(find().empty());
}

}  // namespace
}  // namespace regrapht
