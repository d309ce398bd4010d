// A corpus of function heads. scanner_test lists, for this file, every
// definition and declaration the scanner must report, and nothing else.
// NotAFunction(int x) { is in a comment; so is /* Hidden(int) { } */
#include <cstdio>
#include <vector>
#define SQUARE(x) ((x) * (x))
#define BLOCK_BEGIN(name) void name##_block() {
#define LONG_MACRO(a, b) \
  do {                   \
    a += b;              \
  } while (0)

static const char* kBraces = "} { ) ( not code";
static const char* kRaw = R"delim(
void InRawString(int x) { return; }
)delim";
static const long kBig = 1'000'000;
static const char kQuote = '\'';

void Prototype(int x);
int Pure(float* y, int n) noexcept;

__global__ void __launch_bounds__(256) Scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

template <typename T, int N = 4>
__device__ __forceinline__ T Sum(const T (&v)[N]) {
  T s = T();
  for (int k = 0; k < N; ++k) s += v[k];
  return s;
}

inline int Twice(int x) noexcept { return 2 * x; }

auto Trailing(int x) -> std::vector<std::vector<int>> {
  return {{x}};
}

[[nodiscard]] static int Attributed(int x) { return x; }

std::vector<std::vector<int>> Nested(int n) {
  auto add = [&](int v) { return v + n; };  // a lambda is not a function here
  Prototype(add(1));
  int calls = Twice(n);
  SQUARE(calls);
  return {};
}

struct Functor {
  Functor(int s) : scale_(s), other_{s} {}
  ~Functor() {}
  int operator()(int x) const { return x * scale_; }
  bool operator<(const Functor& o) const { return scale_ < o.scale_; }
  int scale_, other_;
};

extern "C" void CLinkage(double* out) { out[0] = 1.0; }

void Launcher(float* x, int n) {
  Scale<<<(n + 255) / 256, 256>>>(x, 2.0f, n);
  if (n > 0) {
    Prototype(n);
  }
}

int Pure(float* y, int n) noexcept { return y ? n : 0; }
