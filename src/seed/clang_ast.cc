// ParseFile (ast.h) on libclang's C interface: the one file of the rules that
// talks to libclang. A translation unit is parsed from memory, its tokens
// are read once (operators are not exposed by libclang 14's cursors, so a
// binary operator's is the token between its operands), and the cursors of
// the file's function definitions are copied into Node trees.
#include <algorithm>
#include <cctype>
#include <map>

#include "seed/ast.h"

#if REGRAPHT_HAVE_LIBCLANG
#include <clang-c/Index.h>
#endif

namespace regrapht::seed {

const FunctionDef* FileAst::Find(const std::string& name) const {
  for (const auto& f : functions) {
    if (decl(f.decl).name == name) return &f;
  }
  return nullptr;
}

int FileAst::LineOf(size_t offset) const {
  return 1 + static_cast<int>(std::count(
                 source.begin(),
                 source.begin() + static_cast<long>(std::min(offset, source.size())), '\n'));
}

#if !REGRAPHT_HAVE_LIBCLANG

bool FrontEndAvailable() { return false; }

Result<FileAst> ParseFile(const std::string&, const std::string&) {
  return Status::FailedPrecondition(
      "unavailable: this regrapht was built without libclang, the C++ front end of the rules "
      "(install libclang-dev, e.g. scripts/install-deps.sh, and rebuild)");
}

#else

bool FrontEndAvailable() { return true; }

namespace {

std::string Str(CXString s) {
  const char* c = clang_getCString(s);
  std::string out = c ? c : "";
  clang_disposeString(s);
  return out;
}

struct Token {
  size_t begin = 0, end = 0;
  std::string text;
  bool punct = false;
};

std::vector<CXCursor> Children(CXCursor c) {
  std::vector<CXCursor> out;
  clang_visitChildren(
      c,
      [](CXCursor child, CXCursor, CXClientData data) {
        static_cast<std::vector<CXCursor>*>(data)->push_back(child);
        return CXChildVisit_Continue;
      },
      &out);
  return out;
}

bool IsBuiltin(CXTypeKind k) {
  return k >= CXType_Bool && k <= CXType_LongDouble && k != CXType_NullPtr &&
         k != CXType_Overload && k != CXType_Dependent && k != CXType_ObjCId &&
         k != CXType_ObjCClass && k != CXType_ObjCSel;
}

std::string StripConst(std::string s) {
  if (s.rfind("const ", 0) == 0) s.erase(0, 6);
  return s;
}

TypeInfo::Shape ShapeOf(CXType canonical, std::string* elem, CXType* elem_type) {
  const CXTypeKind k = canonical.kind;
  if (IsBuiltin(k)) return TypeInfo::Shape::kScalar;
  if (k == CXType_Pointer) {
    *elem_type = clang_getPointeeType(canonical);
    return TypeInfo::Shape::kPointer;
  }
  if (k == CXType_ConstantArray) {
    *elem_type = clang_getArrayElementType(canonical);
    return TypeInfo::Shape::kCArray;
  }
  if (k != CXType_Record) return TypeInfo::Shape::kOther;
  const std::string name = StripConst(Str(clang_getTypeSpelling(canonical)));
  auto templ = [&](const char* prefix) { return name.rfind(prefix, 0) == 0; };
  if (templ("std::vector<") || templ("std::array<") || templ("std::complex<")) {
    *elem_type = clang_Type_getTemplateArgumentAsType(canonical, 0);
    if (templ("std::complex<")) return TypeInfo::Shape::kComplex;
    return templ("std::vector<") ? TypeInfo::Shape::kVector : TypeInfo::Shape::kStdArray;
  }
  (void)elem;
  if (name.rfind("std::", 0) == 0 || name.find("(lambda") != std::string::npos ||
      name.find("(unnamed") != std::string::npos) {
    return TypeInfo::Shape::kOther;
  }
  return TypeInfo::Shape::kStruct;
}

TypeInfo Classify(CXType t) {
  TypeInfo info;
  info.spelling = Str(clang_getTypeSpelling(t));
  if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) {
    info.is_reference = true;
    t = clang_getPointeeType(t);
  }
  info.is_const = clang_isConstQualifiedType(t) != 0;
  info.value = StripConst(Str(clang_getTypeSpelling(t)));
  CXType canonical = clang_getCanonicalType(t);
  info.canonical = StripConst(Str(clang_getTypeSpelling(canonical)));
  CXType elem_type;
  elem_type.kind = CXType_Invalid;
  info.shape = ShapeOf(canonical, &info.elem, &elem_type);
  if (elem_type.kind != CXType_Invalid) {
    // The element as spelled where possible (`size_t`, not `unsigned long`).
    CXType spelled = elem_type;
    if (info.shape == TypeInfo::Shape::kPointer) spelled = clang_getPointeeType(t);
    info.elem_const = clang_isConstQualifiedType(spelled) != 0;
    info.elem = StripConst(Str(clang_getTypeSpelling(spelled)));
    CXType inner_elem;
    std::string unused;
    info.elem_shape = ShapeOf(clang_getCanonicalType(elem_type), &unused, &inner_elem);
  }
  return info;
}

class Converter {
 public:
  Converter(CXTranslationUnit tu, const std::string& source, FileAst* out)
      : tu_(tu), source_(source), out_(out) {}

  void ReadTokens(CXFile file) {
    CXSourceRange all = clang_getRange(
        clang_getLocationForOffset(tu_, file, 0),
        clang_getLocationForOffset(tu_, file, static_cast<unsigned>(source_.size())));
    CXToken* toks = nullptr;
    unsigned n = 0;
    clang_tokenize(tu_, all, &toks, &n);
    for (unsigned i = 0; i < n; ++i) {
      Token t;
      t.text = Str(clang_getTokenSpelling(tu_, toks[i]));
      t.begin = Offset(clang_getTokenLocation(tu_, toks[i]));
      t.end = t.begin + t.text.size();
      t.punct = clang_getTokenKind(toks[i]) == CXToken_Punctuation;
      tokens_.push_back(std::move(t));
    }
    clang_disposeTokens(tu_, toks, n);
  }

  void TopLevel(CXCursor parent) {
    for (CXCursor c : Children(parent)) {
      if (!clang_Location_isFromMainFile(clang_getCursorLocation(c))) continue;
      const CXCursorKind k = clang_getCursorKind(c);
      if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) {
        TopLevel(c);
      } else if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) &&
                 clang_isCursorDefinition(c)) {
        Function(c, k == CXCursor_FunctionTemplate);
      } else if (k == CXCursor_VarDecl) {
        out_->globals.push_back(Intern(c));
      }
    }
  }

 private:
  size_t Offset(CXSourceLocation loc) const {
    unsigned off = 0;
    clang_getExpansionLocation(loc, nullptr, nullptr, nullptr, &off);
    return off;
  }

  // The token starting at or after `pos`.
  const Token* TokenAt(size_t pos) const {
    auto it = std::lower_bound(tokens_.begin(), tokens_.end(), pos,
                               [](const Token& t, size_t p) { return t.begin < p; });
    return it == tokens_.end() ? nullptr : &*it;
  }

  void Range(CXCursor c, Node* n) const {
    CXSourceRange r = clang_getCursorExtent(c);
    n->begin = Offset(clang_getRangeStart(r));
    n->end = Offset(clang_getRangeEnd(r));
    // A node spelled by a macro (INT_MAX) ends where its expansion does.
    if (const Token* t = TokenAt(n->begin); t && t->begin == n->begin && n->end < t->end)
      n->end = t->end;
    n->end = std::min(std::max(n->end, n->begin), source_.size());
  }

  int Intern(CXCursor c) {
    if (clang_Cursor_isNull(c)) return -1;
    const CXSourceLocation loc = clang_getCursorLocation(c);
    std::string key = Str(clang_getCursorUSR(c));
    if (key.empty()) key = "@" + std::to_string(Offset(loc));
    if (auto it = ids_.find(key); it != ids_.end()) return it->second;
    Decl d;
    d.name = Str(clang_getCursorSpelling(c));
    d.in_main_file = clang_Location_isFromMainFile(loc) != 0;
    d.name_offset = Offset(loc);
    CXSourceRange r = clang_getCursorExtent(c);
    d.begin = Offset(clang_getRangeStart(r));
    d.end = Offset(clang_getRangeEnd(r));
    const CXCursorKind k = clang_getCursorKind(c);
    CXCursor parent = clang_getCursorSemanticParent(c);
    const CXCursorKind pk = clang_getCursorKind(parent);
    const bool in_function = pk == CXCursor_FunctionDecl || pk == CXCursor_FunctionTemplate ||
                             pk == CXCursor_CXXMethod || pk == CXCursor_LambdaExpr;
    if (k == CXCursor_ParmDecl) {
      d.kind = Decl::Kind::kParam;
    } else if (k == CXCursor_VarDecl) {
      d.kind = in_function ? Decl::Kind::kLocal : Decl::Kind::kGlobal;
    } else if (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate ||
               k == CXCursor_CXXMethod || k == CXCursor_Constructor) {
      d.kind = Decl::Kind::kFunction;
    } else if (k == CXCursor_FieldDecl) {
      d.kind = Decl::Kind::kField;
    }
    d.is_class_member = pk == CXCursor_ClassDecl || pk == CXCursor_StructDecl ||
                        pk == CXCursor_ClassTemplate ||
                        pk == CXCursor_ClassTemplatePartialSpecialization;
    d.type = Classify(d.kind == Decl::Kind::kFunction ? clang_getResultType(clang_getCursorType(c))
                                                      : clang_getCursorType(c));
    d.qualified = d.name;
    for (CXCursor p = parent;
         !clang_Cursor_isNull(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
         p = clang_getCursorSemanticParent(p)) {
      const std::string pn = Str(clang_getCursorSpelling(p));
      if (!pn.empty()) d.qualified = pn + "::" + d.qualified;
    }
    d.function = current_function_;
    out_->decls.push_back(std::move(d));
    const int id = static_cast<int>(out_->decls.size()) - 1;
    ids_[key] = id;
    return id;
  }

  void Function(CXCursor c, bool is_template) {
    FunctionDef f;
    f.is_template = is_template;
    f.decl = Intern(c);
    current_function_ = static_cast<int>(out_->functions.size());
    out_->decls[static_cast<size_t>(f.decl)].function = -1;
    CXSourceRange r = clang_getCursorExtent(c);
    f.begin = Offset(clang_getRangeStart(r));
    f.end = Offset(clang_getRangeEnd(r));
    for (CXCursor k : Children(c)) {
      const CXCursorKind kind = clang_getCursorKind(k);
      if (kind == CXCursor_ParmDecl) {
        f.params.push_back(Intern(k));
      } else if (kind == CXCursor_CompoundStmt) {
        f.body = Convert(k);
        f.body_begin = f.body.begin;
      }
    }
    out_->functions.push_back(std::move(f));
    current_function_ = -1;
  }

  std::vector<Node> ConvertAll(const std::vector<CXCursor>& cs) {
    std::vector<Node> out;
    for (CXCursor c : cs) {
      const CXCursorKind k = clang_getCursorKind(c);
      if (k == CXCursor_TypeRef || k == CXCursor_TemplateRef || k == CXCursor_NamespaceRef ||
          k == CXCursor_OverloadedDeclRef || k == CXCursor_MemberRef || k == CXCursor_VariableRef) {
        continue;
      }
      out.push_back(Convert(c));
    }
    return out;
  }

  // The operator spelled between the end of `a` and the start of `b`.
  std::string OpBetween(size_t a_end, size_t b_begin) const {
    for (const Token* t = TokenAt(a_end); t && t->begin < b_begin; ++t) {
      if (t->punct && t->text != "(" && t->text != ")") return t->text;
      if (t == &tokens_.back()) break;
    }
    return "";
  }

  void UnaryOp(Node* n) const {
    const Token* first = TokenAt(n->begin);
    const size_t operand = n->kids.empty() ? n->end : n->kids[0].begin;
    if (first && first->begin == n->begin && first->begin < operand && first->punct) {
      n->op = first->text;
      return;
    }
    n->postfix = true;
    for (const Token* t = TokenAt(n->kids.empty() ? n->begin : n->kids[0].end);
         t && t->begin < n->end; ++t) {
      if (t->punct && t->text != ")") n->op = t->text;
      if (t == &tokens_.back()) break;
    }
  }

  void ForHeader(Node* n) const {
    // for ( init ; cond ; inc ) body: the parts present, from the semicolons.
    size_t semi1 = 0, semi2 = 0, close = 0;
    int depth = 0;
    for (const Token* t = TokenAt(n->begin); t && t->begin < n->end; ++t) {
      if (t->text == "(" || t->text == "[" || t->text == "{") {
        ++depth;
      } else if (t->text == ")" || t->text == "]" || t->text == "}") {
        if (--depth == 0) {
          close = t->begin;
          break;
        }
      } else if (t->text == ";" && depth == 1) {
        (semi1 ? semi2 : semi1) = t->begin;
      }
      if (t == &tokens_.back()) break;
    }
    for (size_t i = 0; i + 1 < n->kids.size(); ++i) {
      const size_t b = n->kids[i].begin;
      if (b < semi1)
        n->has_init = true;
      else if (b < semi2)
        n->has_cond = true;
      else if (b < close)
        n->has_inc = true;
    }
  }

  Node Call(CXCursor c, Node n) {
    const std::string name = Str(clang_getCursorSpelling(c));
    CXCursor callee = clang_getCursorReferenced(c);
    std::vector<Node> args;
    const int nargs = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < nargs; ++i)
      args.push_back(Convert(clang_Cursor_getArgument(c, static_cast<unsigned>(i))));
    if (!clang_Cursor_isNull(callee) && clang_getCursorKind(callee) == CXCursor_Constructor) {
      n.kind = Node::Kind::kConstruct;
      n.name = name;
      n.kids = std::move(args);
      return n;
    }
    if (name.rfind("operator", 0) == 0 && name.size() > 8 &&
        !std::isalnum(static_cast<unsigned char>(name[8]))) {
      return OperatorCall(name.substr(8), std::move(n), std::move(args));
    }
    std::vector<Node> kids = ConvertAll(Children(c));
    if (!kids.empty() && kids[0].kind == Node::Kind::kMember && kids[0].name == name) {
      n.kind = Node::Kind::kMemberCall;
      n.name = name;
      n.arrow = kids[0].arrow;
      n.kids = std::move(kids[0].kids);  // the object
      for (auto& a : args) n.kids.push_back(std::move(a));
      return n;
    }
    n.kind = Node::Kind::kCall;
    n.name = name;
    n.decl = Intern(callee);
    n.kids = std::move(args);
    return n;
  }

  Node OperatorCall(const std::string& op, Node n, std::vector<Node> args) {
    n.op = op;
    n.kids = std::move(args);
    if (op == "[]" && n.kids.size() == 2) {
      n.kind = Node::Kind::kSubscript;
    } else if (op == "()") {
      n.kind = Node::Kind::kCall;
      n.name = "operator()";
    } else if ((op == "++" || op == "--") && !n.kids.empty()) {
      n.kind = Node::Kind::kUnary;
      n.kids.resize(1);
      n.postfix = n.kids[0].begin == n.begin;
    } else if (n.kids.size() == 1) {
      n.kind = Node::Kind::kUnary;
    } else if (n.kids.size() == 2) {
      const bool compound = op.size() >= 2 && op.back() == '=' && op != "==" && op != "!=" &&
                            op != "<=" && op != ">=";
      n.kind = compound ? Node::Kind::kCompoundAssign : Node::Kind::kBinary;
    } else {
      n.kind = Node::Kind::kOther;
    }
    return n;
  }

  // The node kind of a cursor kind (kOther for those not modelled).
  static Node::Kind KindOf(CXCursorKind k) {
    using K = Node::Kind;
    switch (k) {
      case CXCursor_CompoundStmt:
        return K::kCompound;
      case CXCursor_ForStmt:
        return K::kFor;
      case CXCursor_CXXForRangeStmt:
        return K::kRangeFor;
      case CXCursor_WhileStmt:
        return K::kWhile;
      case CXCursor_DoStmt:
        return K::kDo;
      case CXCursor_IfStmt:
        return K::kIf;
      case CXCursor_SwitchStmt:
        return K::kSwitch;
      case CXCursor_ReturnStmt:
        return K::kReturn;
      case CXCursor_BreakStmt:
        return K::kBreak;
      case CXCursor_ContinueStmt:
        return K::kContinue;
      case CXCursor_GotoStmt:
        return K::kGoto;
      case CXCursor_NullStmt:
        return K::kNull;
      case CXCursor_DeclStmt:
        return K::kDeclStmt;
      case CXCursor_VarDecl:
        return K::kVar;
      case CXCursor_BinaryOperator:
        return K::kBinary;
      case CXCursor_CompoundAssignOperator:
        return K::kCompoundAssign;
      case CXCursor_UnaryOperator:
        return K::kUnary;
      case CXCursor_ConditionalOperator:
        return K::kConditional;
      case CXCursor_ArraySubscriptExpr:
        return K::kSubscript;
      case CXCursor_DeclRefExpr:
        return K::kDeclRef;
      case CXCursor_MemberRefExpr:
        return K::kMember;
      case CXCursor_ParenExpr:
        return K::kParen;
      case CXCursor_CStyleCastExpr:
      case CXCursor_CXXStaticCastExpr:
      case CXCursor_CXXFunctionalCastExpr:
      case CXCursor_CXXConstCastExpr:
      case CXCursor_CXXReinterpretCastExpr:
        return K::kCast;
      case CXCursor_IntegerLiteral:
      case CXCursor_FloatingLiteral:
      case CXCursor_CharacterLiteral:
      case CXCursor_StringLiteral:
      case CXCursor_CXXBoolLiteralExpr:
      case CXCursor_CXXNullPtrLiteralExpr:
        return K::kLiteral;
      case CXCursor_InitListExpr:
        return K::kInitList;
      case CXCursor_LambdaExpr:
        return K::kLambda;
      default:
        return K::kOther;
    }
  }

  Node Convert(CXCursor c) {
    Node n;
    Range(c, &n);
    const CXCursorKind k = clang_getCursorKind(c);
    if (clang_isExpression(k)) n.type = Classify(clang_getCursorType(c));
    switch (k) {
      case CXCursor_UnexposedExpr: {
        std::vector<Node> kids = ConvertAll(Children(c));
        if (kids.size() == 1) return std::move(kids[0]);  // an implicit conversion
        n.kids = std::move(kids);
        return n;
      }
      case CXCursor_CallExpr:
        return Call(c, std::move(n));
      default:
        break;
    }
    n.kids = ConvertAll(Children(c));
    n.kind = KindOf(k);
    // What some kinds take from the cursor or their kids besides.
    switch (k) {
      case CXCursor_ForStmt:
        ForHeader(&n);
        break;
      case CXCursor_IfStmt:
        n.has_else = n.kids.size() == 3;
        break;
      case CXCursor_VarDecl:
        n.decl = Intern(c);
        n.type = out_->decls[static_cast<size_t>(n.decl)].type;
        break;
      case CXCursor_BinaryOperator:
      case CXCursor_CompoundAssignOperator:
        if (n.kids.size() == 2) n.op = OpBetween(n.kids[0].end, n.kids[1].begin);
        break;
      case CXCursor_UnaryOperator:
        UnaryOp(&n);
        break;
      case CXCursor_DeclRefExpr:
        n.decl = Intern(clang_getCursorReferenced(c));
        n.name = Str(clang_getCursorSpelling(c));
        break;
      case CXCursor_MemberRefExpr:
        n.name = Str(clang_getCursorSpelling(c));
        if (!n.kids.empty()) n.arrow = OpBetween(n.kids[0].end, n.end) == "->";
        break;
      default:
        break;
    }
    return n;
  }

  CXTranslationUnit tu_;
  const std::string& source_;
  FileAst* out_;
  std::vector<Token> tokens_;
  std::map<std::string, int> ids_;
  int current_function_ = -1;
};

// The first error in the file, with its line; empty when none.
std::string FirstError(CXTranslationUnit tu, const std::string& file) {
  const unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; ++i) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    const CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    std::string msg;
    if (sev >= CXDiagnostic_Error) {
      unsigned line = 0;
      clang_getExpansionLocation(clang_getDiagnosticLocation(d), nullptr, &line, nullptr, nullptr);
      msg = file + ":" + std::to_string(line) + ": " + Str(clang_getDiagnosticSpelling(d));
    }
    clang_disposeDiagnostic(d);
    if (!msg.empty()) return msg;
  }
  return "";
}

}  // namespace

Result<FileAst> ParseFile(const std::string& source, const std::string& file) {
  CXIndex index = clang_createIndex(/*excludeDeclarationsFromPCH=*/0, /*displayDiagnostics=*/0);
  CXUnsavedFile unsaved{file.c_str(), source.data(), static_cast<unsigned long>(source.size())};
  // <cstddef> first: g++ lets <vector> alone declare size_t, clang does not.
  const char* args[] = {"-x", "c++", "-std=c++17", "-fno-spell-checking", "-include", "cstddef"};
  CXTranslationUnit tu = nullptr;
  const CXErrorCode rc = clang_parseTranslationUnit2(index, file.c_str(), args, 6, &unsaved, 1,
                                                     CXTranslationUnit_KeepGoing, &tu);
  if (rc != CXError_Success || !tu) {
    clang_disposeIndex(index);
    return Status::Internal("libclang could not parse " + file + " (error " + std::to_string(rc) +
                            ")");
  }
  std::string error = FirstError(tu, file);
  FileAst out;
  out.source = source;
  if (error.empty()) {
    Converter conv(tu, out.source, &out);
    conv.ReadTokens(clang_getFile(tu, file.c_str()));
    conv.TopLevel(clang_getTranslationUnitCursor(tu));
  }
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(index);
  if (!error.empty()) return Status::InvalidArgument("the C++ front end cannot parse it: " + error);
  return out;
}

#endif  // REGRAPHT_HAVE_LIBCLANG

}  // namespace regrapht::seed
