"""Splitting test cells: what runs beside the answers, and what the grader decides itself."""

import ast

import torch

from helpers.course.grading.probes import Planner, bound_names, effects, split_statements


def plan(source, answers, namespace=None):
    return Planner(set(answers)).steps(source, namespace or {})


def test_statements_that_use_answers_run_only_in_the_sandbox():
    steps = plan("x = 2\ny = square(x)\nz = x + 1\nw = y + 1", {"square"})
    assert [s.where for s in steps] == ["both", "sandbox", "both", "sandbox"]


def test_an_object_handed_to_answer_code_is_tainted_but_modules_are_not():
    namespace = {"torch": torch, "model": torch.nn.Linear(2, 2), "n": 3}
    steps = plan("fill(model, torch.ones(2), n)\ng = model.weight\nk = n + 1", {"fill"}, namespace)
    assert [s.where for s in steps] == ["sandbox", "sandbox", "both"]


def test_a_reference_built_beside_an_answer_stays_the_grader_s():
    steps = plan("mine, ref = Answer(), torch.nn.Linear(2, 2)", {"Answer"}, {"torch": torch})
    assert [(s.where, s.source) for s in steps] == [
        ("sandbox", "mine = Answer()"),
        ("both", "ref = torch.nn.Linear(2, 2)"),
    ]


def test_asserts_capture_the_smallest_answer_parts_and_keep_the_comparison():
    (step,) = plan("assert torch.allclose(mine.grad, ref.grad, atol=1e-6), f'{mine}'", {"mine"})
    assert step.captures == ["mine.grad"]  # the message never runs where the answers run
    assert ast.unparse(step.test) == "torch.allclose(__answer_0, ref.grad, atol=1e-06)"
    (step,) = plan("assert f(2) == 4 and len(g) > 0 and not h", {"f", "g", "h"})
    assert step.captures == ["f(2)", "g", "h"]
    (step,) = plan("assert ones is not batch", {"ones", "batch"})
    assert step.captures == ["id(ones)", "id(batch)"]  # identity as ids, decided here
    assert ast.unparse(step.test) == "__answer_0 != __answer_1"
    (step,) = plan("assert [t(v) for v in (1, 2)] == [1, 2]", {"t"})
    assert step.captures == ["[t(v) for v in (1, 2)]"]
    (step,) = plan("assert all(isinstance(p, str) for p in found)", {"found"})
    assert step.captures == ["found"]  # the loop and isinstance run on the grader's side
    assert ast.unparse(step.test) == "all((isinstance(p, str) for p in __answer_0))"
    (step,) = plan("assert all(f(v) for v in range(3))", {"f"})
    assert step.captures == ["list((f(v) for v in range(3)))"]  # a generator arrives as a list


def test_an_assert_without_answers_is_decided_entirely_by_the_grader():
    (step,) = plan("assert 1 + 1 == 2", {"f"})
    assert step.where == "assert" and step.captures == []


def test_bound_names_of_an_answer_cell():
    source = (
        "import torch as t\nfrom x import y\ndef f(): z = 1\nclass C: pass\n"
        "a, (b, c) = 1, (2, 3)\nfor i in []: pass"
    )
    assert bound_names(ast.parse(source)) == {"t", "y", "f", "C", "a", "b", "c", "i"}


def test_starred_tuples_are_not_split():
    assert len(split_statements("a, *b = 1, 2, 3")) == 1


def test_is_true_sends_the_value_and_keeps_the_literal_on_the_grader_s_side():
    (step,) = plan('assert student["distinguishable"] is False, "spans zero"', {"student"})
    assert step.captures == ['student["distinguishable"]'.replace('"', "'")]
    assert ast.unparse(step.test) == "__answer_0 is False"
    assert all("False" not in c for c in step.captures)


def test_a_message_that_involves_answers_is_shown_as_written_and_evaluated_by_the_grader():
    (step,) = plan('assert found == ["issue"], f"want {want}: got {found}"', {"found"})
    assert step.captures == ["found"]
    message = ast.fix_missing_locations(ast.Expression(step.message))
    assert eval(compile(message, "<m>", "eval"), {"want": 3}) == ("want 3: got {found}")
    (step,) = plan("assert found, str(found)", {"found"})
    assert ast.unparse(step.message) == "'str(found)'"


def test_effects_name_what_a_statement_binds_or_changes_but_not_modules_it_calls():
    import torch.nn as nn

    def of(source, namespace=None):
        return effects(ast.parse(source).body[0], namespace or {"nn": nn, "torch": torch})

    assert of("nn.functional.cross_entropy(reference(X), y).backward()") == {"reference"}
    assert of("torch.manual_seed(0)") == set()
    assert of("torch.cuda.synchronize = lambda: None") == {"torch"}
    assert of("X, y = torch.randn(4), torch.ones(4)") == {"X", "y"}
    assert of("d['k'] += 1") == {"d"}
