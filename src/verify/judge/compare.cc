#include "verify/judge/compare.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <numeric>

namespace regrapht::verify {
namespace {

struct Field {
  ScalarType type;
  size_t offset;
  std::string name;
};

// Field layout of an element: one field for scalars, natural C++ layout for
// structs (the driver and reference share it).
std::vector<Field> Layout(const ProblemSpec& spec, const ElementType& t) {
  if (!t.is_struct()) return {{*t.scalar, 0, ""}};
  std::vector<Field> out;
  size_t off = 0;
  for (const auto& f : spec.structs[t.struct_index].fields) {
    size_t s = ScalarTypeSize(f.type);
    size_t a = f.type == ScalarType::kComplexFloat ? 4 : (f.type == ScalarType::kComplexDouble ? 8 : s);
    off = (off + a - 1) / a * a;
    out.push_back({f.type, off, f.name});
    off += s;
  }
  return out;
}

// Number of real components and their decoding.
int Components(ScalarType t) {
  return (t == ScalarType::kComplexFloat || t == ScalarType::kComplexDouble) ? 2 : 1;
}

double Real(ScalarType t, const char* p, int component) {
  switch (t) {
    case ScalarType::kFloat: { float v; std::memcpy(&v, p, 4); return v; }
    case ScalarType::kDouble: { double v; std::memcpy(&v, p, 8); return v; }
    case ScalarType::kComplexFloat: { float v; std::memcpy(&v, p + 4 * component, 4); return v; }
    case ScalarType::kComplexDouble: { double v; std::memcpy(&v, p + 8 * component, 8); return v; }
    default: return 0;
  }
}

int64_t Integer(ScalarType t, const char* p) {
  switch (t) {
    case ScalarType::kInt8: { int8_t v; std::memcpy(&v, p, 1); return v; }
    case ScalarType::kInt16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case ScalarType::kInt32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case ScalarType::kInt64: { int64_t v; std::memcpy(&v, p, 8); return v; }
    case ScalarType::kUInt8: case ScalarType::kBool: { uint8_t v; std::memcpy(&v, p, 1); return v; }
    case ScalarType::kChar: { char v; std::memcpy(&v, p, 1); return v; }
    case ScalarType::kUInt32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    case ScalarType::kUInt64: case ScalarType::kSizeT: { uint64_t v; std::memcpy(&v, p, 8); return static_cast<int64_t>(v); }
    default: return 0;
  }
}

bool RealMatches(double e, double g, const Tolerance& tol) {
  if (std::isnan(e)) return std::isnan(g);
  if (std::isinf(e)) return g == e;
  if (std::isnan(g) || std::isinf(g)) return false;
  return std::fabs(g - e) <= tol.abs + tol.rel * std::fabs(e);
}

bool ElementMatches(const std::vector<Field>& layout, const Tolerance& tol, const char* e,
                    const char* g) {
  for (const auto& f : layout) {
    if (IsFloating(f.type)) {
      for (int c = 0; c < Components(f.type); ++c) {
        if (!RealMatches(Real(f.type, e + f.offset, c), Real(f.type, g + f.offset, c), tol)) return false;
      }
    } else if (Integer(f.type, e + f.offset) != Integer(f.type, g + f.offset)) {
      return false;
    }
  }
  return true;
}

// Strict weak order on decoded elements, for unordered comparison.
bool ElementLess(const std::vector<Field>& layout, const char* a, const char* b) {
  for (const auto& f : layout) {
    if (IsFloating(f.type)) {
      for (int c = 0; c < Components(f.type); ++c) {
        double x = Real(f.type, a + f.offset, c), y = Real(f.type, b + f.offset, c);
        if (std::isnan(x) || std::isnan(y)) {
          if (std::isnan(x) != std::isnan(y)) return std::isnan(y);
          continue;
        }
        if (x != y) return x < y;
      }
    } else {
      int64_t x = Integer(f.type, a + f.offset), y = Integer(f.type, b + f.offset);
      if (x != y) return x < y;
    }
  }
  return false;
}

std::string FormatField(ScalarType t, const char* p) {
  char buf[96];
  if (t == ScalarType::kFloat) {
    std::snprintf(buf, sizeof buf, "%.9g", Real(t, p, 0));
  } else if (t == ScalarType::kDouble) {
    std::snprintf(buf, sizeof buf, "%.17g", Real(t, p, 0));
  } else if (Components(t) == 2) {
    std::snprintf(buf, sizeof buf, "(%.9g, %.9g)", Real(t, p, 0), Real(t, p, 1));
  } else if (t == ScalarType::kUInt64 || t == ScalarType::kSizeT) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
  } else {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(Integer(t, p)));
  }
  return buf;
}

// Elements of `a` sorted (indices into a.bytes).
std::string SortedBytes(const std::vector<Field>& layout, const ArrayRecord& a) {
  std::vector<size_t> idx(a.count);
  std::iota(idx.begin(), idx.end(), 0);
  const char* base = a.bytes.data();
  size_t es = a.elem_size;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t x, size_t y) {
    return ElementLess(layout, base + x * es, base + y * es);
  });
  std::string out;
  out.reserve(a.bytes.size());
  for (size_t i : idx) out.append(base + i * es, es);
  return out;
}

}  // namespace

std::string Mismatch::ToString() const {
  if (reason == "length") return "output '" + arg + "': expected " + expected + " elements, got " + got;
  if (reason == "constant") {
    return "output '" + arg + "' is constant (" + got + ") where the reference's varies";
  }
  return "output '" + arg + "'" + (index >= 0 ? "[" + std::to_string(index) + "]" : std::string()) +
         ": expected " + expected + ", got " + got;
}

std::string FormatElement(const ProblemSpec& spec, const ElementType& type, const ArrayRecord& a,
                          size_t i) {
  auto layout = Layout(spec, type);
  const char* p = a.bytes.data() + i * a.elem_size;
  if (!type.is_struct()) return FormatField(layout[0].type, p);
  std::string s = "(";
  for (size_t k = 0; k < layout.size(); ++k) {
    if (k) s += ", ";
    s += layout[k].name + "=" + FormatField(layout[k].type, p + layout[k].offset);
  }
  return s + ")";
}

bool IsConstant(const ArrayRecord& a) {
  if (a.count < 2) return false;
  for (size_t i = 1; i < a.count; ++i) {
    if (std::memcmp(a.bytes.data(), a.bytes.data() + i * a.elem_size, a.elem_size) != 0) return false;
  }
  return true;
}

bool VariesBeyondRounding(const ProblemSpec& spec, const ElementType& type, const ArrayRecord& a) {
  if (a.count < 2) return false;
  for (const Field& f : Layout(spec, type)) {
    bool floating = f.type == ScalarType::kFloat || f.type == ScalarType::kDouble ||
                    f.type == ScalarType::kComplexFloat || f.type == ScalarType::kComplexDouble;
    for (int c = 0; c < (floating ? Components(f.type) : 1); ++c) {
      if (!floating) {
        int64_t first = Integer(f.type, a.bytes.data() + f.offset);
        for (size_t i = 1; i < a.count; ++i) {
          if (Integer(f.type, a.bytes.data() + i * a.elem_size + f.offset) != first) return true;
        }
        continue;
      }
      double lo = INFINITY, hi = -INFINITY;
      size_t nans = 0;
      for (size_t i = 0; i < a.count; ++i) {
        double v = Real(f.type, a.bytes.data() + i * a.elem_size + f.offset, c);
        if (std::isnan(v)) {
          ++nans;
          continue;
        }
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      if (nans > 0 && nans < a.count) return true;
      if (nans == a.count || lo == hi) continue;
      if (std::isinf(lo) || std::isinf(hi)) return true;
      bool single = f.type == ScalarType::kFloat || f.type == ScalarType::kComplexFloat;
      double eps = single ? 1.1920928955078125e-07 : 2.220446049250313e-16;
      if (hi - lo > 16 * eps * std::max(std::fabs(lo), std::fabs(hi))) return true;
    }
  }
  return false;
}

std::optional<Mismatch> CompareOutput(const ProblemSpec& spec, const ElementType& type,
                                      const Tolerance& tol, bool order_matters,
                                      const ArrayRecord& expected, const ArrayRecord& got) {
  Mismatch m;
  m.arg = expected.name;
  if (expected.count != got.count || expected.elem_size != got.elem_size) {
    m.reason = "length";
    m.expected = std::to_string(expected.count);
    m.got = std::to_string(got.count);
    if (expected.elem_size != got.elem_size) {
      m.expected += " x " + std::to_string(expected.elem_size) + " bytes";
      m.got += " x " + std::to_string(got.elem_size) + " bytes";
    }
    return m;
  }
  auto layout = Layout(spec, type);
  const ArrayRecord* e = &expected;
  const ArrayRecord* g = &got;
  ArrayRecord se, sg;
  if (!order_matters) {
    se = expected;
    sg = got;
    se.bytes = SortedBytes(layout, expected);
    sg.bytes = SortedBytes(layout, got);
    e = &se;
    g = &sg;
  }
  for (size_t i = 0; i < e->count; ++i) {
    const char* pe = e->bytes.data() + i * e->elem_size;
    const char* pg = g->bytes.data() + i * g->elem_size;
    if (!ElementMatches(layout, tol, pe, pg)) {
      m.reason = "value";
      m.index = static_cast<int64_t>(i);
      m.expected = FormatElement(spec, type, *e, i);
      m.got = FormatElement(spec, type, *g, i);
      if (!order_matters) m.arg += " (sorted)";
      return m;
    }
  }
  return std::nullopt;
}

int64_t FindPoison(const ProblemSpec& spec, const ElementType& type, const ArrayRecord& a) {
  auto layout = Layout(spec, type);
  for (size_t i = 0; i < a.count; ++i) {
    const char* p = a.bytes.data() + i * a.elem_size;
    for (const auto& f : layout) {
      if (IsFloating(f.type)) {
        if (std::isnan(Real(f.type, p + f.offset, 0))) return static_cast<int64_t>(i);
      } else if (f.type != ScalarType::kBool) {
        size_t s = ScalarTypeSize(f.type);
        bool all_a5 = s > 1, all_5a = s > 1;
        for (size_t b = 0; b < s; ++b) {
          unsigned char c = static_cast<unsigned char>(p[f.offset + b]);
          all_a5 = all_a5 && c == 0xA5;
          all_5a = all_5a && c == 0x5A;
        }
        if (all_a5 || all_5a) return static_cast<int64_t>(i);
      }
    }
  }
  return -1;
}

int64_t FindNonFinite(const ProblemSpec& spec, const ElementType& type, const ArrayRecord& a) {
  auto layout = Layout(spec, type);
  for (size_t i = 0; i < a.count; ++i) {
    const char* p = a.bytes.data() + i * a.elem_size;
    for (const auto& f : layout) {
      if (IsFloating(f.type) && !std::isfinite(Real(f.type, p + f.offset, 0))) return static_cast<int64_t>(i);
    }
  }
  return -1;
}

}  // namespace regrapht::verify
