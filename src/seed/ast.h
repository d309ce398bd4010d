// The C++ front end of the rules' first step: a source file parsed by
// libclang (a real C++ parser, with the system's standard headers) and
// copied into a small owned tree, so that the analysis (analyze.h) and the
// code generator (codegen.h) never touch libclang and can be read and tested
// on their own.
//
//   Result<FileAst> ast = ParseFile(source, "reference.cpp");
//   const FunctionDef* f = ast->Find("saxpy");
//
// The tree keeps what the rules need: statement and expression kinds,
// operators, the declaration every name refers to, types classified into a
// few shapes, and each node's byte range in the source, so that generated
// code reuses the user's own text. Implicit nodes (conversions, cleanups)
// are skipped: a node's children are what the source spells.
//
// Without libclang (REGRAPHT_HAVE_LIBCLANG 0) ParseFile fails with
// FailedPrecondition naming the missing package.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "regrapht/status.h"

namespace regrapht::seed {

// Whether this build has the front end (libclang).
bool FrontEndAvailable();

// What a type is, as far as the rules care.
struct TypeInfo {
  enum class Shape {
    kScalar,    // a builtin arithmetic type (int, float, size_t, bool, ...)
    kStruct,    // a class or struct (not a std container)
    kPointer,   // T*
    kVector,    // std::vector<T>
    kStdArray,  // std::array<T, K>
    kCArray,    // T[K] (constant size)
    kComplex,   // std::complex<T>
    kOther,     // anything else (strings, lambdas, other containers, ...)
  };
  Shape shape = Shape::kOther;
  bool is_const = false;      // the type itself (after a reference) is const
  bool is_reference = false;  // T& or T&&
  bool elem_const = false;    // kPointer: the pointee is const
  std::string spelling;       // as written, e.g. "const std::vector<float> &"
  std::string value;          // without reference and top-level const: "std::vector<float>"
  std::string canonical;      // `value` with every alias resolved: "unsigned long" for size_t
  std::string elem;           // kPointer/kVector/kStdArray/kCArray: the element type
  TypeInfo::Shape elem_shape = Shape::kOther;
};

// One declaration a name in the file refers to.
struct Decl {
  enum class Kind { kParam, kLocal, kGlobal, kFunction, kField, kOther };
  Kind kind = Kind::kOther;
  std::string name;
  std::string qualified;         // "std::sqrt", "std::numeric_limits<float>::max"
  TypeInfo type;                 // variables: their type; functions: the return type
  bool in_main_file = false;     // declared in the parsed file (not a header)
  bool is_class_member = false;  // a method or static member (e.g. of numeric_limits)
  size_t begin = 0, end = 0;     // the declaration's range in the source
  size_t name_offset = 0;        // where its name is spelled
  int function = -1;             // kParam/kLocal: index of the FunctionDef it belongs to
};

// A statement or expression.
struct Node {
  enum class Kind {
    kCompound,
    kFor,
    kRangeFor,
    kWhile,
    kDo,
    kIf,
    kSwitch,
    kReturn,
    kBreak,
    kContinue,
    kGoto,
    kDeclStmt,
    kVar,
    kNull,
    kBinary,          // op: "+", "<", "&&", "=", ... (builtin or overloaded)
    kCompoundAssign,  // op: "+=", "-=", ...
    kUnary,           // op: "-", "!", "++", "--", "*", "&"; `postfix` for x++ / x--
    kConditional,     // a ? b : c
    kSubscript,       // a[i] (builtin or operator[]): kids {base, index}
    kDeclRef,         // a name: `decl`
    kMember,          // base.name or base->name: kids {base}; `arrow`
    kCall,            // f(args): `decl` the callee, `name` its name; kids are the arguments
    kMemberCall,      // base.f(args): kids {base, args...}; `name` the method
    kConstruct,       // T(args), T{args}: kids are the arguments
    kParen,
    kCast,      // kids {operand}
    kLiteral,   // numbers, characters, strings, true/false, nullptr
    kInitList,  // {a, b, c}
    kLambda,
    kOther,  // anything else (sizeof, new, throw, ...): the rules refuse it
  };
  Kind kind = Kind::kOther;
  std::string op;  // operators
  bool postfix = false;
  bool arrow = false;
  std::string name;           // kMember, kCall, kMemberCall: the member or callee name
  int decl = -1;              // kDeclRef, kCall, kVar: index into FileAst::decls; -1 none
  TypeInfo type;              // expressions and kVar: the (canonical) type
  size_t begin = 0, end = 0;  // byte range [begin, end) in the source
  // kFor: which of init/cond/inc are present (kids hold the present ones in
  // that order, then the body).
  bool has_init = false, has_cond = false, has_inc = false;
  // kIf: whether an else branch is present (kids {cond, then[, else]}).
  bool has_else = false;
  std::vector<Node> kids;
};

// A function defined in the file.
struct FunctionDef {
  int decl = -1;            // its Decl
  std::vector<int> params;  // Decl indices, in order
  size_t begin = 0;         // start of the definition (specifiers, return type)
  size_t body_begin = 0;    // the body's '{'
  size_t end = 0;           // one past the body's '}'
  Node body;                // kCompound
  bool is_template = false;
};

struct FileAst {
  std::string source;
  std::vector<Decl> decls;
  std::vector<FunctionDef> functions;  // definitions in the file, in order
  std::vector<int> globals;            // file-scope variables defined in the file (Decl indices)

  const FunctionDef* Find(const std::string& name) const;
  const Decl& decl(int i) const { return decls[static_cast<size_t>(i)]; }
  std::string Text(const Node& n) const { return source.substr(n.begin, n.end - n.begin); }
  // The 1-based line of a byte offset.
  int LineOf(size_t offset) const;
};

// Parses `source` as C++17 (`file` names it in messages and resolves
// relative includes). Fails when libclang is missing or the file has errors
// (the first one is named with its line).
Result<FileAst> ParseFile(const std::string& source, const std::string& file);

}  // namespace regrapht::seed
