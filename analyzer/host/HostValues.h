//===- HostValues.h - host code as facts about a launch ---------*- C++ -*-===//
//
// Follows the values a launch passes (grid and block dims, kernel
// arguments) back through the host function that launches: initializers of
// locals, arithmetic, the induction variables of enclosing loops. Host
// variables that cannot be followed become shared symbols named after the
// variable, so two arguments computed from the same variable stay related
// (HGRD's parameter relations). Also collects the asserts and guards that
// dominate the launch, enclosing loop bounds, and allocation sizes.
//
// A HostValues can stand for one frame of a call chain: `caller` is the
// frame of the function that calls `host` (at the caller's own "launch"
// expression, the call). Parameters of `host` are then followed into the
// caller's arguments, and the caller's guards dominate the launch too.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_HOST_HOSTVALUES_H
#define GPURACE_ANALYZER_HOST_HOSTVALUES_H

#include "analyzer/check/LaunchContext.h"
#include "analyzer/host/ElementWrites.h"
#include "analyzer/host/HostConditions.h"
#include "analyzer/host/ReachingDefinitions.h"
#include "analyzer/model/SymbolSpace.h"
#include "analyzer/model/VariableWrites.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <array>
#include <limits>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace clang {
class ArraySubscriptExpr;
class ASTContext;
class BinaryOperator;
class CallExpr;
class DeclRefExpr;
class Expr;
class FieldDecl;
class FunctionDecl;
class IfStmt;
class InitListExpr;
class MemberExpr;
class QualType;
class Stmt;
class SwitchStmt;
class VarDecl;
} // namespace clang

namespace gpurace::analyzer {

class GlobalWriters;

class HostValues {
public:
  HostValues(clang::ASTContext &ast, SymbolSpace &symbols,
             const clang::FunctionDecl *host, const clang::Expr *launch,
             HostValues *caller = nullptr);

  // The value of a host integer expression at the launch, as a 64-bit term
  // over shared symbols; nothing when the expression is not an integer.
  std::optional<z3::expr> value(const clang::Expr *expr);

  // The three components of a dim3 launch argument: `256`, `dim3(w / 16,
  // h / 16)`, or a local dim3 initialized once.
  std::array<std::optional<z3::expr>, 3> dims(const clang::Expr *expr);

  // Asserts, exit guards and enclosing conditions and loops of the launch.
  std::vector<Fact> dominatingFacts();

  // The byte size of the allocation a pointer argument comes from, with
  // the fact that it is positive, when a cudaMalloc-style call in the host
  // function allocates it.
  std::optional<z3::expr> allocationBytes(const clang::Expr *pointer_arg,
                                          std::vector<Fact> &facts);

  // The value of `field` of a struct argument (`img` for `img.width`) at
  // the launch, followed through the callers; nothing when the argument
  // is not a host struct variable.
  std::optional<z3::expr> structField(const clang::Expr *struct_arg,
                                      const std::string &field);

  // The integer a floating-point argument converts to (of its `field`,
  // when given, for a struct argument), where the host shows it holds a
  // whole number: `dir.s0 = e[1][0]` with `double e[9][2] = {..., {1, 0},
  // ...}` never written (HostFloats.cpp).
  std::optional<z3::expr> truncatedArgument(const clang::Expr &arg, const std::string &field);

  // Where a pointer argument comes from: a host variable (`root`), a
  // pointer field of a local struct (`plan.d_in`) or of an element of a
  // local array of structs (`plan[i].d_in`), or an element of an array of
  // pointers (`buf[src]`), each element holding an allocation of its own;
  // `element` is the index as a host value where the host code shows it;
  // and how many bytes past that buffer's start, when the host code shows
  // it. No root when the pointer may point anywhere.
  struct PointerOrigin {
    const clang::VarDecl *root = nullptr;
    std::optional<z3::expr> offset;
    const clang::FieldDecl *field = nullptr;
    std::optional<z3::expr> element;
    // `root` is an array of pointers whose elements are allocations of
    // their own, never set from another pointer.
    bool separate_elements = false;
  };
  // One origin a pointer may have, and the condition over host values
  // under which it has it.
  struct PointerChoice {
    PointerOrigin origin;
    z3::expr when;
  };
  // The origins of a pointer argument (`p`, `p + 4`, `&a[i]`, `v.data()`,
  // `c ? a : b`), followed through the parameters of the call chain,
  // through local views (`float *tail = base + n`), and through the
  // definitions of a pointer set on several paths or exchanged in a loop
  // (`std::swap(in, out)`). Empty for a null pointer; one choice with no
  // root when it may point anywhere.
  std::vector<PointerChoice> pointerChoices(const clang::Expr *pointer_arg);
  // The origins of `object.field`, a pointer field of a struct argument
  // (`Params p{in, out}; k<<<g, b>>>(p)`): what a local struct's
  // initializer puts there, where nothing writes the struct afterwards, or
  // the assignments of the field that reach the launch (`p.x = d_x;`,
  // `cudaMalloc(&p.y, n)`).
  std::vector<PointerChoice> fieldChoices(const clang::Expr &object,
                                          const clang::FieldDecl &field);

  // Whether a global pointer (or array of pointers, or the pointer fields
  // of a global struct) holds allocations of its own: no code of the file
  // sets it from another pointer.
  bool ownGlobalBuffer(const clang::VarDecl &var);

  // Host values the analysis could not establish, by the name of the
  // symbol that stands for each, with why: a call whose result is not
  // followed, a write inside a loop, a value set through a pointer. Shared
  // by the frames of one call chain.
  const std::map<std::string, v1::Imprecision> &unknownValues() const { return *unknowns_; }
  // The symbols of loop variables whose start and bound the loop facts
  // state (`for (j = 32; j <= 1024; j *= 2)` around the launch): as known
  // as the values those facts are made of, though no single value.
  const std::set<std::string> &inductionValues() const { return *induction_values_; }

  // Facts that hold of the symbols the values are made of (an unsigned
  // host variable is never negative), from this frame and its callers.
  std::vector<Fact> valueFacts() const;

private:
  // The value of `var` (of its `field`) where `point` reads it: its
  // reaching definitions, one expression per path, selected by the
  // conditions of the branches that lead to each.
  std::optional<z3::expr> valueAt(const clang::VarDecl &var, const std::string &field,
                                  const clang::Stmt &point);
  // The call of this frame's lambda in the caller, when `var` is a local of
  // an enclosing function that the lambda captures.
  const clang::CallExpr *lambdaCall(const clang::VarDecl &var) const;
  z3::expr combine(const std::vector<Definition> &definitions, const clang::VarDecl &var,
                   const std::string &field);
  z3::expr definitionValue(const Definition &definition, const clang::VarDecl &var,
                           const std::string &field);
  z3::expr assignedValue(const Definition &definition, const clang::VarDecl &var,
                         const std::string &field);
  z3::expr updatedValue(const Definition &definition, const clang::VarDecl &var,
                        const std::string &field);
  z3::expr branchTaken(const Definition &definition);
  // That `switch_stmt` was entered by one of `entry`'s labels.
  z3::expr switchTaken(const clang::SwitchStmt &switch_stmt, const EntryLabels &entry);
  // That `condition` selects one of `entry`'s labels, where `all_values`
  // are the switch's case labels (HostSwitches.cpp).
  z3::expr switchEntered(const z3::expr &condition, const EntryLabels &entry,
                         const std::set<int64_t> &all_values) const;
  // What a call whose body is visible leaves in `var` (its `field`), handed
  // to it by address or reference (`getSizes(&grid, &block)`), or what a
  // call returns (`MatrixDim d = dims(n)`): the callee's definitions at its
  // end, in a frame of its own whose caller is this function at the call.
  z3::expr passedOutValue(const Definition &definition, const clang::VarDecl &var,
                          const std::string &field);
  std::optional<z3::expr> returnedField(const clang::CallExpr &call, const clang::VarDecl &var,
                                        const std::string &field);
  // What cudaMallocPitch or cudaMalloc3D leaves in its pitch (a value at
  // least the width asked for) and in a pitched pointer's xsize and ysize,
  // and the device properties every supported GPU shares that
  // cudaGetDeviceProperties and cudaDeviceGetAttribute report
  // (CudaOutParameters.cpp); nothing for other calls and fields.
  std::optional<z3::expr> cudaOutValue(const clang::CallExpr &call, const clang::VarDecl &var,
                                       const std::string &field);
  std::optional<z3::expr> deviceProperty(const clang::CallExpr &call, const clang::VarDecl &var,
                                         const std::string &field);
  // `field` (width, height or depth) of a cudaExtent argument.
  std::optional<z3::expr> extentField(const clang::Expr &extent, const std::string &field);
  // What a call returns as an integer: `min`/`max` of two integers, or
  // what a callee whose body is visible returns (`iDivUp(w, 16)`), read in
  // a frame of its own; nothing when neither.
  std::optional<z3::expr> returnedValue(const clang::CallExpr &call);
  // What the statements of `path` return when run in order, each `if`
  // with a return inside split into its two paths (at most `branches`);
  // `never` when the path ends in exit or throw.
  struct Returned {
    bool never = false;
    std::optional<z3::expr> value;
  };
  Returned returnedBy(std::vector<const clang::Stmt *> path, int &branches);
  // A symbol named `name` that stands for `value`, with the fact that says
  // so (`description`, located at `at` when given), made once per name:
  // where a verdict uses the value, `--explain` shows where it came from.
  z3::expr stated(const std::string &name, const z3::expr &value,
                  const std::string &description, const clang::Stmt *at);
  // `value`, computed in the body of `callee`, as a symbol of its own with
  // the fact that says so, which `--explain` shows where a verdict uses it.
  z3::expr followedInto(const z3::expr &value, const clang::VarDecl &var,
                        const std::string &field, const std::string &callee,
                        const std::string &how, const clang::Stmt &at);
  // A frame for `call`'s callee, with this function at the call as its
  // caller (held in `sibling`).
  std::unique_ptr<HostValues> calleeFrame(const clang::CallExpr &call,
                                          std::unique_ptr<HostValues> &sibling);
  // The facts a callee's frame (and its caller's frame at the call) made.
  void adoptValueFacts(HostValues &frame, HostValues &sibling);
  // `field` of a struct value (`dim3(w / 16, h / 16)`, `{p, w, h}`, a copy
  // of another struct variable) read at the point of `struct_value`.
  z3::expr fieldOfStruct(const clang::Expr &struct_value, const clang::VarDecl &var,
                         const std::string &field);
  // `field` of the object whose method this frame is (`rows_` in
  // `void Matrix::mirror()`).
  z3::expr memberOfThis(const clang::FieldDecl &field);
  // The value a parameter (or a global) has on entry to the function.
  z3::expr onEntry(const clang::VarDecl &var, const std::string &field);
  // Why a global's value cannot be followed through the functions that
  // reach the launch: a static local, a global of another file, one that a
  // function other than `main` may set. Nothing when it can.
  std::optional<std::string> unfollowedGlobal(const clang::VarDecl &var);
  // A followable global on entry to this function: what the caller left in
  // it at the call, else its initializer.
  z3::expr globalOnEntry(const clang::VarDecl &var, const std::string &field);
  z3::expr initialValue(const clang::VarDecl &var, const std::string &field);
  const GlobalWriters &globalWriters();
  // The symbol that stands for `var` (its `field`) where its value is not
  // known, and one recorded as unknown with `reason`.
  z3::expr symbolOf(const clang::VarDecl &var, const std::string &field);
  z3::expr unknownSymbolOf(const clang::VarDecl &var, const std::string &field,
                           const std::string &reason, const clang::Stmt *at);
  // The unknown value a loop leaves in `var`, with what its writes keep of
  // the value before it (HostLoops.cpp).
  z3::expr leftByLoop(const Definition &definition, const clang::VarDecl &var,
                      const std::string &field);
  // What the writes of the loop keep of the value before it: that value
  // itself where every write sets it again, or a fact bounding `carried`
  // (the value the loop carries) from below (HostLoops.cpp).
  std::optional<z3::expr> keptByLoop(const Definition &definition, const clang::VarDecl &var,
                                     const std::string &field, const z3::expr &carried);
  // The value one write of a loop stores, from the value `carried` it
  // finds; nothing for a write not followed.
  std::optional<z3::expr> writtenByLoop(const clang::Stmt &write, const clang::VarDecl &var,
                                        const std::string &field, const z3::expr &carried);
  // Which entry value of the group a variable holds in the loop that
  // exchanges them (an index into `definition.group`, different for each
  // member), and the integer value that gives it (HostLoops.cpp).
  z3::expr exchangeSelector(const Definition &definition, const clang::VarDecl &var);
  z3::expr exchangedValue(const Definition &definition, const clang::VarDecl &var);
  // The variable of a range-based for loop over a local array of integers
  // (`for (int b : block_sizes)`): one of the values the function stores
  // into the array, its initializer's among them (HostArrays.cpp).
  z3::expr rangeElementValue(const Definition &definition, const clang::VarDecl &var);
  // One of the entries of `list` (`for (int b : {64, 128})`), chosen by a
  // symbol named after `name`.
  std::optional<z3::expr> listEntry(const clang::InitListExpr &list, const std::string &name);
  void noteUnknown(const z3::expr &symbol, const std::string &detail, const std::string &source,
                   const clang::Stmt *at);
  // The name of the symbol for an expression's value the host does not
  // follow.
  std::string unknownName(const clang::Expr &expr) const;
  void addRangeFact(const z3::expr &symbol, clang::QualType type, const std::string &name);
  const clang::Expr *viewInitializer(const clang::VarDecl &var) const;
  // Whether a pointer variable is set from another pointer after its
  // declaration (`p = q`, `std::swap(p, q)`), so that its buffer is one of
  // those its definitions give.
  bool reassignedPointer(const clang::VarDecl &var) const;
  // Whether some assignment in the host function to a place `target`
  // accepts sets it from another pointer rather than from an allocation.
  bool setFromPointer(llvm::function_ref<bool(const clang::Expr &)> target) const;
  // Whether some assignment in the host function sets an element of the
  // array `var` from another pointer (`buf[1] = buf[0]`).
  bool reassignedElement(const clang::VarDecl &var) const;
  // Whether some assignment in the host function sets `field` from
  // another pointer (`plan[1].d_in = plan[0].d_out`) rather than from an
  // allocation.
  bool reassignedField(const clang::FieldDecl &field) const;
  // The origin of `s.field` or `a[i].field` for a local `s` or `a`.
  PointerOrigin fieldOrigin(const clang::MemberExpr &member);
  // The origin of `field` of the struct `object` (of what it points to,
  // with `arrow`): a local struct, or a struct parameter followed into its
  // caller.
  PointerOrigin objectFieldOrigin(const clang::Expr &object, bool arrow,
                                  const clang::FieldDecl &field,
                                  const std::optional<z3::expr> &element);
  // The origins of a pointer variable where `point` reads it, from its
  // reaching definitions (HostPointers.cpp).
  // The origins of the pointer variable `var` where `point` reads it.
  std::vector<PointerChoice> namedPointerChoices(const clang::VarDecl &var,
                                                 const clang::Stmt &point);
  std::vector<PointerChoice> variableChoices(const clang::VarDecl &var, const clang::Stmt &point);
  // The choices `choicesOf` gives each definition, under the conditions
  // that pick it: the definitions partition the paths as `combine` reads
  // them. One choice of any buffer where there would be too many.
  std::vector<PointerChoice>
  partitionedChoices(const std::vector<Definition> &definitions,
                     const std::function<std::vector<PointerChoice>(const Definition &)> &choicesOf);
  // The same for a pointer field of a local struct; nothing where no
  // definition of the field reaches `point`.
  // A global struct (or array of structs) `object` names whose fields no
  // code sets but one by one (GlobalWriters); null for any other.
  const clang::VarDecl *ownGlobalStruct(const clang::Expr &object);
  // The buffers a pointer field of such a struct may hold, whichever
  // function sets it: its own allocation or a pointer assigned to it.
  std::vector<PointerChoice> globalFieldChoices(const clang::VarDecl &var,
                                                const clang::FieldDecl &field,
                                                const std::optional<z3::expr> &element);
  // The buffers of a pointer another function assigns to such a field,
  // where they are rooted in globals (`g.x`, `g.x + n`, a global
  // pointer); any buffer otherwise.
  std::vector<PointerChoice> globalPointerChoices(const clang::Expr &copy);
  std::optional<std::vector<PointerChoice>> assignedFieldChoices(const clang::VarDecl &var,
                                                                 const clang::FieldDecl &field,
                                                                 const clang::Stmt &point);
  std::vector<PointerChoice> definitionChoices(const Definition &definition,
                                               const clang::VarDecl &var);
  // A host condition as a truth value: its value where the host code
  // shows it, else a symbol of its own.
  z3::expr conditionValue(const clang::Expr &condition);
  // The argument the caller passes for a parameter of `host`, when this
  // frame has a caller (callArgument), and when the parameter keeps that
  // value too (argumentFor).
  const clang::Expr *callArgument(const clang::VarDecl &var) const;
  const clang::Expr *argumentFor(const clang::VarDecl &var) const;
  // The constant a parameter of `host` takes where the caller leaves it to
  // its default argument.
  std::optional<z3::expr> defaultArgument(const clang::VarDecl &var) const;
  // What names a symbol per chain of calls to this frame, so that two
  // calls of one helper get symbols of their own.
  std::string callChainSuffix() const;
  // Where a symbol's value comes from, named the same in every parse.
  std::string placeKey(clang::SourceLocation loc) const;
  z3::expr symbolFor(const clang::VarDecl &var);
  bool assignedOutsideInit(const clang::VarDecl &var) const;
  // The bytes behind `v.data()` of a std::vector sized at construction.
  std::optional<z3::expr> vectorBytes(const clang::Expr *pointer_arg, std::string &name);
  // The bytes behind `v.ptr` of a cudaPitchedPtr from cudaMalloc3D, with the
  // fact that its pitch covers a row.
  std::optional<z3::expr> volumeBytes(const clang::Expr *pointer_arg, std::string &name,
                                      std::vector<Fact> &facts);
  z3::expr fieldSymbolFor(const clang::VarDecl &var, const std::string &field);
  // The bytes one allocation call or new-expression provides.
  std::optional<z3::expr> bytesOf(const clang::Expr &allocation,
                                  const clang::VarDecl &pointer, std::string &text,
                                  std::vector<Fact> &facts);
  void addCondition(const clang::Expr *condition, bool holds,
                    v1::HostFactKind kind, const std::string &text,
                    const clang::Stmt &at, std::vector<Fact> &facts);
  void addPrecedingGuards(const clang::Stmt &block, const clang::Stmt *until,
                          std::vector<Fact> &facts);
  void addGuard(const clang::Stmt &stmt, std::vector<Fact> &facts);
  // The values of `switch_stmt`'s condition whose labels reach `element`,
  // the statement of its body that holds the launch (HostSwitches.cpp).
  void addSwitchFacts(const clang::SwitchStmt &switch_stmt, const clang::Stmt &element,
                      std::vector<Fact> &facts);
  // The condition of a loop around the launch, unless its body may change
  // a variable of the condition before the launch, and what the writes of
  // its induction variables say: where they start, their direction, their
  // stride.
  void addLoopFacts(const clang::Stmt &loop, const clang::Expr *condition,
                    const clang::Stmt &body, std::vector<Fact> &facts);
  void addInductionFacts(const clang::Stmt &loop, const clang::VarDecl &var,
                         std::vector<Fact> &facts);
  // An element of a local array the function fills by plain stores
  // (`s[l]` after `s[l - 1] = alignUp(nw)`), as one of the values stored,
  // chosen alike for the arrays filled together and read at one index in
  // one statement (HostArrays.cpp); nothing when the array is not one of
  // those (ElementWrites.h).
  std::optional<z3::expr> elementValue(const clang::ArraySubscriptExpr &read);
  // An element of a constant table (`const int sizes[] = {227, 256, 720}`)
  // at the index the read's index takes: that index picks the value, so
  // two tables read at one index agree on the entry.
  std::optional<z3::expr> tableElement(const clang::ArraySubscriptExpr &read);
  std::optional<std::map<const clang::VarDecl *, z3::expr>>
  familyElements(const std::vector<const ElementWrites::Group *> &groups,
                 const std::string &name);
  // Symbols of their own for one run of a loop's stores: those `values`
  // mention and those the facts tie to them, each renamed with `suffix`;
  // the facts over them are stated again of the renamed ones.
  struct Renaming {
    z3::expr_vector from, to;
  };
  Renaming freshRun(const std::vector<z3::expr> &values, const std::string &suffix);
  static z3::expr renamed(const z3::expr &value, const Renaming &renaming);
  // A host floating-point value (HostFloats.cpp): exact where it holds a
  // whole number (`(float)n`, `ceil(n / 256.0)`, a counter `t += step`
  // from 0), and bounds that hold of it either way.
  struct FloatValue {
    std::optional<z3::expr> whole;
    double low = -std::numeric_limits<double>::infinity();
    double high = std::numeric_limits<double>::infinity();
  };
  FloatValue floatValue(const clang::Expr &expr);
  FloatValue variableFloat(const clang::VarDecl &var, const clang::DeclRefExpr &ref);
  FloatValue arithmeticFloat(const clang::BinaryOperator &binary);
  FloatValue calledFloat(const clang::CallExpr &call);
  // `field` of a host struct variable (`dir.s0`), from its one reaching
  // assignment, followed through the callers.
  FloatValue fieldFloat(const clang::Expr &object, const std::string &field);
  // An element of a local array of floats its initializer fills and no
  // code writes (`e[1][0]` of `double e[9][2] = {{0, 0}, {1, 0}, ...}`),
  // at constant indices (HostArrays.cpp).
  FloatValue floatTableElement(const clang::ArraySubscriptExpr &read);
  // Whether every use of the local array `var` in the host function reads
  // it: its elements as values, or as pointers to const.
  bool readOnlyArray(const clang::VarDecl &var);
  // The integer a float converts to (`(int)((float)n / scale)`): its whole
  // value, else a symbol between its truncated bounds, stated; nothing
  // when it has no bound.
  std::optional<z3::expr> truncatedFloat(const clang::Expr &conversion,
                                         const clang::Expr &operand);
  // Whether every write of a local float variable stores a whole number,
  // and whether an expression does.
  bool holdsWholeNumbers(const clang::VarDecl &var);
  bool storesWholeNumber(const clang::Expr &stored);
  // ceil(a / b) (or floor) of whole values, as integer division.
  z3::expr roundedQuotient(const z3::expr &a, const z3::expr &b, bool up);
  void widen(FloatValue &value) const;
  // Bounds of an integer read as a float: its value where the stated
  // symbols it is made of reduce it to a constant, else its type's range.
  void integerBounds(const clang::Expr &integer, FloatValue &value);
  // The fact that a whole value read as a float of `bits` mantissa bits
  // is exact: |whole| <= 2^bits.
  void statedExact(const z3::expr &whole, const clang::Expr &at, int bits);
  // Bounds of a variable the loop scales (`stride <<= 1`), from its start.
  void addScalingFacts(const clang::Stmt &loop, const z3::expr &at_launch,
                       const z3::expr &from, const StepSummary &steps,
                       const std::string &described, std::vector<Fact> &facts);
  bool changedBeforeLaunch(const clang::Stmt &body, const clang::VarDecl &var) const;
  bool contains(const clang::Stmt &outer, const clang::Stmt &inner) const;
  Fact fact(z3::expr term, v1::HostFactKind kind, const std::string &text,
            const clang::Stmt &at);

  clang::ASTContext &ast_;
  SymbolSpace &symbols_;
  const Arith &arith_;
  const clang::FunctionDecl *host_;
  const clang::Expr *launch_;
  HostValues *caller_;
  ReachingDefinitions environment_;
  // Variables (and fields) whose value is being computed where a point
  // reads them: `n = n / 2` reads the definitions before it, but a
  // definition that reaches its own reading stands for the symbol.
  std::set<std::tuple<const clang::VarDecl *, std::string, const clang::Stmt *>> following_;
  // A definition's value is computed once, so that an unknown initializer
  // (`atoi(argv[1])`) is one symbol wherever the variable is read.
  std::map<std::tuple<const clang::Stmt *, const clang::VarDecl *, std::string>, z3::expr>
      definition_values_;
  std::map<const clang::IfStmt *, z3::expr> branch_conditions_;
  // A switch's condition and its case labels, read once for every path
  // its cases choose.
  struct SwitchCondition {
    z3::expr value;
    std::set<int64_t> all_values;
  };
  std::map<const clang::SwitchStmt *, SwitchCondition> switch_conditions_;
  std::shared_ptr<std::map<std::string, v1::Imprecision>> unknowns_;
  std::shared_ptr<std::set<std::string>> induction_values_;
  std::vector<Fact> value_facts_;
  // What a loop's writes keep is asked of one solver, shared by the
  // frames of one call chain (HostLoops.cpp).
  std::shared_ptr<HostConditions> invariants_;
  std::set<std::string> ranged_;
  std::set<std::string> stated_;
  // The symbols `stated` made and the values they stand for.
  std::vector<std::pair<z3::expr, z3::expr>> stated_values_;
  std::map<const clang::CallExpr *, z3::expr> returned_values_;
  // Float variables found to hold whole numbers (or not); empty while
  // being decided.
  std::map<const clang::VarDecl *, std::optional<bool>> whole_floats_;
  // Local arrays found to be only read (readOnlyArray), or not.
  std::map<const clang::VarDecl *, bool> read_only_arrays_;
  // The function's array stores, found at the first element read.
  // Shared with the frames of this function that its calls make.
  std::shared_ptr<const ElementWrites> element_writes_;
  // The array families being followed, shared by the frames of one call
  // chain: a helper that a store calls reads the family in a frame of its
  // own.
  std::shared_ptr<std::set<const clang::VarDecl *>> following_families_;
  // The elements of a family read at one index in one statement.
  std::map<std::tuple<const clang::VarDecl *, const clang::Stmt *, std::string>,
           std::optional<std::map<const clang::VarDecl *, z3::expr>>>
      element_reads_;
  // Built at the first global read, shared by the frames of one parse.
  std::shared_ptr<const GlobalWriters> global_writers_;
  // Calls followed from the launching function to this frame; summaries
  // stop at kMaxCalleeDepth.
  int callee_depth_ = 0;
  // In a callee's frame: the out-parameter and the value the caller's
  // variable held before the call, which the parameter starts with.
  const clang::VarDecl *entry_param_ = nullptr;
  std::optional<z3::expr> entry_value_;
};

} // namespace gpurace::analyzer

#endif
