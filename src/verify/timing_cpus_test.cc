#include "verify/timing_cpus.h"

#include <sched.h>

#include <gtest/gtest.h>

namespace regrapht::verify {
namespace {

std::vector<int> Alone(int cpu) { return {cpu}; }

TEST(TimingCpusTest, ParsesSysfsLists) {
  EXPECT_EQ(ParseCpuList("0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(ParseCpuList("5"), (std::vector<int>{5}));
  EXPECT_EQ(ParseCpuList(""), (std::vector<int>{}));
  EXPECT_FALSE(ParseCpuList("3-1").has_value());
  EXPECT_FALSE(ParseCpuList("a").has_value());
  EXPECT_FALSE(ParseCpuList("0-99999").has_value());
}

TEST(TimingCpusTest, TheLastCpuTimesAndItsSiblingsStayIdle) {
  auto plan = PlanTimingCpus({0, 1, 2, 3, 4, 5, 6, 7}, [](int c) { return std::vector<int>{c % 4, c % 4 + 4}; },
                             std::nullopt);
  ASSERT_TRUE(plan.ok() && plan->has_value());
  EXPECT_EQ((*plan)->timed, 7);
  EXPECT_EQ((*plan)->busy, (std::vector<int>{0, 1, 2, 4, 5, 6}));  // 3 shares 7's core
  EXPECT_EQ((*plan)->Describe(), "CPU 7 (others on CPUs 0-2,4-6)");
}

TEST(TimingCpusTest, SettingPicksTheCpuOrTurnsItOff) {
  auto two = PlanTimingCpus({0, 1}, Alone, std::string("0"));
  ASSERT_TRUE(two.ok() && two->has_value());
  EXPECT_EQ((*two)->timed, 0);
  EXPECT_EQ((*two)->busy, std::vector<int>{1});
  auto automatic = PlanTimingCpus({0, 1}, Alone, std::string("auto"));
  ASSERT_TRUE(automatic.ok() && automatic->has_value());
  EXPECT_EQ((*automatic)->timed, 1);
  auto off = PlanTimingCpus({0, 1}, Alone, std::string("off"));
  ASSERT_TRUE(off.ok());
  EXPECT_FALSE(off->has_value());
  auto bad = PlanTimingCpus({0, 1}, Alone, std::string("7"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("REGRAPHT_TIMING_CPU=7"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("0-1"), std::string::npos) << bad.status().message();
}

TEST(TimingCpusTest, OneCoreLeavesNothingToPin) {
  auto one = PlanTimingCpus({0}, Alone, std::nullopt);
  ASSERT_TRUE(one.ok());
  EXPECT_FALSE(one->has_value());
  auto smt = PlanTimingCpus({0, 1}, [](int) { return std::vector<int>{0, 1}; }, std::nullopt);
  ASSERT_TRUE(smt.ok());
  EXPECT_FALSE(smt->has_value());  // two hyper-threads of one core
}

std::vector<int> ThreadCpus() {
  cpu_set_t set;
  EXPECT_EQ(::sched_getaffinity(0, sizeof set, &set), 0);
  std::vector<int> out;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) out.push_back(c);
  }
  return out;
}

// Records the calling thread's CPUs when each command starts: what the child
// it forks would inherit.
class AffinityRecorder : public CommandRunner {
 public:
  Result<CommandResult> Run(const CommandSpec&) override {
    seen.push_back(ThreadCpus());
    return CommandResult{};
  }
  std::vector<std::vector<int>> seen;
};

TEST(TimingCpusTest, CommandsRunOnTheBusyCpusAndTimedOnesOnTheirOwn) {
  const std::vector<int> allowed = ThreadCpus();
  auto plan = PlanTimingCpus(allowed, Alone, std::nullopt);
  ASSERT_TRUE(plan.ok());
  if (!plan->has_value()) GTEST_SKIP() << "one CPU: nothing to pin";
  AffinityRecorder recorder;
  auto runner = NewPinningRunner(&recorder, **plan);
  ASSERT_TRUE(runner->Run(CommandSpec{}).ok());
  {
    TimedScope timed;
    EXPECT_TRUE(InTimedScope());
    ASSERT_TRUE(runner->Run(CommandSpec{}).ok());
  }
  EXPECT_FALSE(InTimedScope());
  ASSERT_TRUE(runner->Run(CommandSpec{}).ok());
  ASSERT_EQ(recorder.seen.size(), 3u);
  EXPECT_EQ(recorder.seen[0], (*plan)->busy);
  EXPECT_EQ(recorder.seen[1], std::vector<int>{(*plan)->timed});
  EXPECT_EQ(recorder.seen[2], (*plan)->busy);
  EXPECT_EQ(ThreadCpus(), allowed) << "the thread's own affinity is restored after each command";
}

}  // namespace
}  // namespace regrapht::verify
