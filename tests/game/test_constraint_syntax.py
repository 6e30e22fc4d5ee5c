"""cardgames.constraint_syntax: the text syntax of constraints, read into the constraint
objects, and its errors (naming the text and the column)."""

from __future__ import annotations

import re

import pytest

from cardgames.constraint_syntax import as_constraint, parse_constraint
from cardgames.constraints import (
    HCP,
    AllOf,
    AnyOf,
    Holds,
    Lacks,
    Length,
    Not,
    Predicate,
    Shape,
    Usually,
    balanced,
    semibalanced,
    unbalanced,
)
from cardgames.errors import ParseError
from cardgames.hands import Hand


def test_module_doctests_pass():
    import doctest

    import cardgames.constraint_syntax as syntax_module
    failures, attempted = doctest.testmod(syntax_module)
    assert attempted > 0 and failures == 0


# ---- the text syntax ---------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("15-17 hcp, balanced", HCP(15, 17) & balanced()),
    ("spades>=4", Length("S", 4, 13)),
    ("5+ hearts", Length("H", 5, 13)),
    ("hcp<=10, holds SA", HCP(0, 10) & Holds("SA")),
    ("hcp>12", HCP(13, 37)),
    ("hcp<12", HCP(0, 11)),
    ("hcp=8", HCP(8, 8)),
    ("hcp 6-9", HCP(6, 9)),
    ("12+ hcp", HCP(12, 37)),
    ("3 diamonds", Length("D", 3, 3)),
    ("4-5 clubs", Length("C", 4, 5)),
    ("S<=2", Length("S", 0, 2)),
    ("4333", Shape("4333")),
    ("3433", Shape("4333")),
    ("shape 5431", Shape("5431")),
    ("4=4=3=2", Shape("4=4=3=2")),
    ("5=x=x=x", Shape("5=x=x=x")),
    ("unbalanced", unbalanced()),
    ("4333 or 4432 or 5332", balanced()),
    ("semibalanced", semibalanced()),
    ("4333 or 4432 or 5332 or 5422 or 6322", semibalanced()),
    ("5431 or 4=4=4=1", Shape("5431", "4=4=4=1")),
    ("not balanced", Not(balanced())),
    ("holds SA HK", Holds(["SA", "HK"])),
    ("lacks S10", Lacks("ST")),
    ("10+ hcp and 5+ spades", HCP(10, 37) & Length("S", 5, 13)),
    ("11-15 hcp, 5+ spades or 5+ hearts",
     HCP(11, 15) & (Length("S", 5, 13) | Length("H", 5, 13))),
    ("(5+ spades, 10+ hcp) or 15+ hcp",
     AnyOf([AllOf([Length("S", 5, 13), HCP(10, 37)]), HCP(15, 37)])),
])
def test_parses_the_text_syntax(text, expected):
    assert parse_constraint(text) == expected


@pytest.mark.parametrize("text, position, fragment", [
    ("15-17 hcpp", 6, "expected 'hcp' or a suit"),
    ("spades>=", 8, "expected a number"),
    ("holds", 5, "expected cards after 'holds'"),
    ("holds SZ", 6, "not a card"),
    ("5+ foo", 3, "expected 'hcp' or a suit"),
    ("4334", 0, "add up to 13"),
    ("4=4=4=4", 0, "add up to 13"),
    ("hcp>=40", 5, "at most 37"),
    ("15-12 hcp", 0, "empty range"),
    ("pt>13", 3, "pt cannot be 13.5 or more (at most 13)"),   # was "27/2"
    ("qt 4.5-2", 3, "empty range 4.5-2 for qt"),
    ("spades>=4,", 10, "expected a term"),
    ("balancd", 0, "unknown word 'balancd'"),
    ("12+ hcp @", 8, "unexpected character '@'"),
    ("12+ hcp 5+ spades", 8, "separate terms with commas"),
    ("", 0, "empty constraint"),
    ("(5+ spades", 10, "expected ')'"),
])
def test_parse_errors_name_the_text_and_the_column(text, position, fragment):
    with pytest.raises(ParseError) as info:
        parse_constraint(text)
    err = info.value
    assert fragment in err.message
    assert err.text == text
    assert err.position == position
    assert f"column {position + 1}" in str(err)


def test_as_constraint_takes_a_constraint_its_text_or_a_predicate():
    c = HCP(15, 17) & balanced()
    assert as_constraint(c) is c
    assert as_constraint("15-17 hcp, balanced") == c

    def long_spades(hand):
        return hand.length("S") >= 6

    p = as_constraint(long_spades)
    assert isinstance(p, Predicate) and p.fn is long_spades
    with pytest.raises(TypeError, match="got int"):
        as_constraint(3)  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="column 10"):
        as_constraint("12+ hcp, frob")


def test_an_unknown_word_is_told_every_word_a_term_starts_with():
    with pytest.raises(ParseError) as info:
        parse_constraint("12+ hcp, frob")
    message = str(info.value)
    for word in ("hcp", "a suit", "freakness", "pp", "support", "rp", "pt", "qt", "lsp",
                 "semibalanced", "usually", "not", "any"):
        assert re.search(rf"[ (]{word}[,)]| {word} or ", message), word
    assert "did you mean" not in message


@pytest.mark.parametrize("typo, meant", [("freaknes<=7", "freakness"), ("spads 5+", "spades"),
                                         ("5+ heart", None), ("balanced, usualy 6+ hcp",
                                                              "usually")])
def test_a_misspelt_word_gets_a_suggestion(typo, meant):
    if meant is None:       # (a word the syntax reads: no error)
        parse_constraint(typo)
        return
    with pytest.raises(ParseError, match=f"did you mean '{meant}'"):
        parse_constraint(typo)


@pytest.mark.parametrize("text, after, column", [
    ("not", "'not'", 4), ("usually", "'usually'", 8), ("usually(0.5)", "')'", 13),
    ("12+ hcp,", "','", 9), ("(", "'('", 2), ("5+ spades or", "'or'", 13),
])
def test_a_missing_term_names_the_word_before_it(text, after, column):
    with pytest.raises(ParseError, match=f"expected a term after {re.escape(after)}") as info:
        parse_constraint(text)
    assert info.value.position == column - 1


@pytest.mark.parametrize("text", ["5- spades", "5 - spades", "12- hcp", "4.5- pt"])
def test_a_number_with_a_trailing_minus_is_refused_not_read_as_at_most(text):
    # "5-" was read as "at most 5": one key away from "5+", and the opposite of it.
    with pytest.raises(ParseError, match="has no upper end"):
        parse_constraint(text)


# ---- long text: a message quotes an excerpt, not the whole text ------------------------------

def test_an_error_in_a_long_constraint_quotes_an_excerpt_around_the_column():
    text = "12+ hcp, " * 700 + "frob"
    with pytest.raises(ParseError) as info:
        parse_constraint(text)
    err = info.value
    assert err.position == text.index("frob")
    assert f"column {err.position + 1}" in str(err)
    assert len(str(err)) < 400      # (the words a term starts with take 200 of them)
    assert err.text.startswith("...") and err.text.endswith("frob") and len(err.text) <= 110


@pytest.mark.parametrize("text", [
    "x" * 10_000,                          # an unknown word
    "holds SA " + "q" * 10_000,            # not a card
    "12+ hcp " + "z" * 10_000,             # no comma before the next term
    "hcp>=" + "9" * 10_000,                # a number too large
    "(" * 5_000 + "any" + ")" * 5_000,     # nested too deep
    "12+ hcp, " * 700 + "@",               # a character the syntax does not use
    "shape " + "4" * 10_000,               # a shape of too many digits
])
def test_errors_in_long_constraints_are_short(text):
    with pytest.raises(ParseError) as info:
        parse_constraint(text)
    assert len(str(info.value)) < 500


def test_a_long_value_that_is_not_text_is_quoted_short():
    with pytest.raises(ParseError) as info:
        parse_constraint(list(range(10_000)))  # type: ignore[arg-type]
    assert "cannot make a constraint from list" in str(info.value)
    assert len(str(info.value)) < 200


def test_semibalanced_takes_5422_and_6322_and_prints_its_name():
    c = parse_constraint("semibalanced")
    assert str(c) == "semibalanced" and str(parse_constraint("balanced or 5422 or 6322")) == \
        "semibalanced"
    for pbn, ok in [("AK2.K32.Q432.K32", True), ("A2.K2.QJ432.KJ32", True),     # 4432, 5422
                    ("A2.K2.QJ5432.KJ2", True), ("AKQ2.K.QJ432.K43", False),    # 6322, 5431
                    ("A2.K2.QJ65432.K2", False), ("AK32.KQ32.QJ32.2", False)]:  # 7222, 4441
        assert c.accepts(Hand.from_pbn(pbn)) is ok, pbn


@pytest.mark.parametrize("text, expected", [
    ("12-20 hcp, usually 15-17 hcp", "12-20 hcp, usually 15-17 hcp"),
    ("usually(0.2) (15-17 hcp, balanced)", "usually(0.2) (15-17 hcp, balanced)"),
    ("usually (5+ spades or 5+ hearts)", "usually (5+ spades or 5+ hearts)"),
    ("usually(0.1) balanced", "usually balanced"),
])
def test_usually_reads_and_writes_back(text, expected):
    assert str(parse_constraint(text)) == expected
    assert parse_constraint(expected) == parse_constraint(text)


@pytest.mark.parametrize("text, message, column", [
    ("not usually 15-17 hcp", "'not' cannot take a 'usually'", 1),
    ("usually usually balanced", "cannot nest", 9),
    ("usually(2) balanced", "probability from 0 to 1, not 2", 9),
])
def test_usually_errors_name_the_place(text, message, column):
    with pytest.raises(ParseError, match=message) as info:
        parse_constraint(text)
    assert f"column {column}" in str(info.value)


@pytest.mark.parametrize("text", ["usually(0.00001) balanced", "usually(0.333333333) balanced",
                                  "usually(0.2) 15-17 hcp", "usually(1) 5+ spades"])
def test_a_usually_weight_reads_back_the_same(text):
    c = parse_constraint(text)
    assert parse_constraint(str(c)) == c


def test_an_error_inside_not_names_its_place_once():
    with pytest.raises(ParseError) as info:
        parse_constraint("not")
    assert str(info.value).count("column") == 1


def test_usually_takes_a_shape_in_parentheses():
    # "usually (4333)" read the shape as a weight, and refused it as no probability.
    assert parse_constraint("usually (4333)") == parse_constraint("usually 4333")
    assert parse_constraint("usually (0.25) 4333") == Usually(parse_constraint("4333"), 0.25)
    with pytest.raises(ParseError, match="probability from 0 to 1, not 5"):
        parse_constraint("usually(5) 4333")
