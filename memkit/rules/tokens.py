"""Tokenizer of the worldshift/1 expression language."""

from __future__ import annotations

from dataclasses import dataclass

from memkit.errors import ExpressionSyntaxError

__all__ = ["Token", "tokenize", "RESERVED"]

RESERVED = frozenset({"and", "or", "not", "in", "true", "false", "null", "current", "previous", "row"})

_TWO_CHAR = ("==", "!=", "<=", ">=")
_ONE_CHAR = "<>+-*/(),.[]"


@dataclass(frozen=True)
class Token:
    """One token: kind is NUMBER, STRING, NAME, OP or END; ``pos`` is its 0-based offset."""

    kind: str
    value: str
    pos: int


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens, ending with an END token; raise ExpressionSyntaxError on junk."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch.isdigit():
            start = i
            while i < n and text[i].isdigit():
                i += 1
            if i < n and text[i] == "." and i + 1 < n and text[i + 1].isdigit():
                i += 1
                while i < n and text[i].isdigit():
                    i += 1
            if i < n and text[i] in "eE":
                j = i + 1
                if j < n and text[j] in "+-":
                    j += 1
                if j < n and text[j].isdigit():
                    i = j
                    while i < n and text[i].isdigit():
                        i += 1
                else:
                    raise ExpressionSyntaxError("malformed exponent", text=text, position=i)
            tokens.append(Token("NUMBER", text[start:i], start))
            continue
        if ch in "'\"":
            end = text.find(ch, i + 1)
            if end < 0:
                raise ExpressionSyntaxError("unterminated string", text=text, position=i)
            tokens.append(Token("STRING", text[i + 1 : end], i))
            i = end + 1
            continue
        if ch.isalpha() or ch == "_":
            start = i
            while i < n and (text[i].isalnum() or text[i] == "_"):
                i += 1
            tokens.append(Token("NAME", text[start:i], start))
            continue
        two = text[i : i + 2]
        if two in _TWO_CHAR:
            tokens.append(Token("OP", two, i))
            i += 2
            continue
        if ch in _ONE_CHAR:
            tokens.append(Token("OP", ch, i))
            i += 1
            continue
        if ch == "=":
            raise ExpressionSyntaxError("unexpected '=' (use '==' to compare)", text=text, position=i)
        raise ExpressionSyntaxError(f"unexpected character {ch!r}", text=text, position=i)
    tokens.append(Token("END", "", n))
    return tokens
