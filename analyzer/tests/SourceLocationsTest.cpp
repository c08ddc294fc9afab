// stableKey (SourceLocations.h): host symbols are named by where their
// values come from, so the names must not move when something is included
// before the file (a precompiled header loaded instead of parsed), and must
// still tell apart the tokens of one macro expansion.
#include "analyzer/model/SourceLocations.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/Expr.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Tooling/Tooling.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace gpurace::analyzer {
namespace {

const char *kCode = R"(
#define SQUARE(x) ((x) * (x))
#define TWICE(y) SQUARE(y) + SQUARE(y)
#define DECLARE(name) int name = 7;
DECLARE(limit)
int use(int v) { return TWICE(v); }
)";

std::unique_ptr<clang::ASTUnit> parse(const std::vector<std::string> &extra,
                                      const std::string &code = kCode,
                                      const std::string &file = "keys.cpp") {
  std::vector<std::string> args = {"-std=c++17"};
  args.insert(args.end(), extra.begin(), extra.end());
  // Mapped by the tool for `-include first.h`.
  clang::tooling::FileContentMappings headers = {{"first.h", "int earlier[16];\n"}};
  return clang::tooling::buildASTFromCodeWithArgs(
      code, args, file, "clang-tool", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), headers);
}

// Each reference to `v` in `use`, in source order of the AST.
struct References : clang::DynamicRecursiveASTVisitor {
  std::vector<clang::SourceLocation> found;
  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) override {
    if (ref->getDecl()->getName() == "v")
      found.push_back(ref->getBeginLoc());
    return true;
  }
};

const clang::VarDecl *global(clang::ASTUnit &unit, const char *name) {
  for (clang::Decl *decl : unit.getASTContext().getTranslationUnitDecl()->decls())
    if (auto *var = llvm::dyn_cast<clang::VarDecl>(decl))
      if (var->getName() == name)
        return var;
  return nullptr;
}

TEST(StableKey, IsTheSameWhenHeadersComeBeforeTheFile) {
  std::unique_ptr<clang::ASTUnit> alone = parse({});
  // A header included first takes source-location space before the
  // file's macro expansions (`limit` is named in one).
  std::unique_ptr<clang::ASTUnit> after = parse({"-include", "first.h"});
  ASSERT_TRUE(alone && after);
  const clang::VarDecl *first = global(*alone, "limit");
  const clang::VarDecl *second = global(*after, "limit");
  ASSERT_TRUE(first && second);
  ASSERT_NE(first->getLocation().getRawEncoding(), second->getLocation().getRawEncoding())
      << "the header did not shift the file's locations: nothing is tested";
  EXPECT_EQ(stableKey(first->getLocation(), alone->getSourceManager()),
            stableKey(second->getLocation(), after->getSourceManager()));
}

TEST(StableKey, TellsTheTokensOfOneMacroExpansionApart) {
  std::unique_ptr<clang::ASTUnit> alone = parse({});
  std::unique_ptr<clang::ASTUnit> after = parse({"-include", "first.h"});
  ASSERT_TRUE(alone && after);
  References in_alone, in_after;
  in_alone.TraverseDecl(alone->getASTContext().getTranslationUnitDecl());
  in_after.TraverseDecl(after->getASTContext().getTranslationUnitDecl());
  // TWICE(v) is four uses of `v` spelled once.
  ASSERT_EQ(in_alone.found.size(), 4u);
  ASSERT_EQ(in_after.found.size(), 4u);
  std::vector<std::string> keys;
  for (size_t i = 0; i < 4; ++i) {
    keys.push_back(stableKey(in_alone.found[i], alone->getSourceManager()));
    EXPECT_EQ(keys.back(), stableKey(in_after.found[i], after->getSourceManager()));
  }
  for (size_t i = 0; i < 4; ++i)
    for (size_t j = i + 1; j < 4; ++j)
      EXPECT_NE(keys[i], keys[j]) << "uses " << i << " and " << j;
}

// The solver's search follows symbol names: a project moved to another
// directory must get the same names, and so the same verdicts.
TEST(StableKey, IsTheSameWhereverTheFileLies) {
  std::unique_ptr<clang::ASTUnit> here = parse({}, kCode, "/src/a/keys.cpp");
  std::unique_ptr<clang::ASTUnit> there = parse({}, kCode, "/home/user/checkout/b/other.cpp");
  std::unique_ptr<clang::ASTUnit> edited = parse({}, std::string(kCode) + "int more;\n",
                                                 "/src/a/keys.cpp");
  ASSERT_TRUE(here && there && edited);
  const clang::VarDecl *a = global(*here, "limit");
  const clang::VarDecl *b = global(*there, "limit");
  const clang::VarDecl *c = global(*edited, "limit");
  ASSERT_TRUE(a && b && c);
  std::string key = stableKey(a->getLocation(), here->getSourceManager());
  EXPECT_EQ(key, stableKey(b->getLocation(), there->getSourceManager()));
  EXPECT_EQ(key.find("keys"), std::string::npos) << key;
  // Another text is another file, even at the same path and offset.
  EXPECT_NE(key, stableKey(c->getLocation(), edited->getSourceManager()));
}

} // namespace
} // namespace gpurace::analyzer
