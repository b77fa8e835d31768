"""Value semantics of worldshift/1: truth, equality, ordering, arithmetic, text form.

Numbers are IEEE doubles compared rounded to 6 decimals everywhere; a number
never equals a string or a boolean; null equals only null; only the boolean
``true`` is true.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from memkit.rules.schema import Value, is_number

__all__ = [
    "truthy",
    "values_equal",
    "less_than",
    "arith",
    "round_half_away",
    "to_text",
    "normalize",
    "value_key",
]


def truthy(value: object) -> bool:
    """Only the boolean ``true`` is true."""
    return value is True


def _num(x: float) -> float:
    return round(float(x), 6)


def values_equal(a: object, b: object) -> bool:
    """``==`` of the language: same kind only; numbers rounded to 6 decimals."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return _num(a) == _num(b)  # type: ignore[arg-type]
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    return False


def less_than(op: str, a: object, b: object) -> bool:
    """``< <= > >=``: two numbers or two strings (code points); anything else is false."""
    if is_number(a) and is_number(b):
        x, y = _num(a), _num(b)  # type: ignore[arg-type]
    elif isinstance(a, str) and isinstance(b, str):
        x, y = a, b  # type: ignore[assignment]
    else:
        return False
    if op == "<":
        return x < y
    if op == "<=":
        return x <= y
    if op == ">":
        return x > y
    return x >= y


def arith(op: str, a: object, b: object) -> Value:
    """``+ - * /`` on two numbers; null for anything else and for division by zero."""
    if not (is_number(a) and is_number(b)):
        return None
    x, y = float(a), float(b)  # type: ignore[arg-type]
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    if _num(y) == 0.0:
        return None
    return x / y


def round_half_away(x: object, n: object) -> Value:
    """``round(x, n)``: half away from zero on the shortest decimal form of x."""
    if not (is_number(x) and is_number(n)):
        return None
    try:
        places = int(n)  # type: ignore[arg-type]
        d = Decimal(repr(float(x)))
        q = Decimal(1).scaleb(-places)
        return float(d.quantize(q, rounding=ROUND_HALF_UP))
    except (InvalidOperation, OverflowError, ValueError):
        return None


def _number_text(x: float) -> str:
    r = _num(x)
    if r == 0:
        return "0"
    if r.is_integer():
        return str(int(r))
    return format(r, ".6f").rstrip("0").rstrip(".")


def to_text(value: object) -> str:
    """The text form ``concat`` uses: null as '', booleans true/false, numbers to 6 decimals."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if is_number(value):
        return _number_text(value)  # type: ignore[arg-type]
    return str(value)


def normalize(value: object) -> Value:
    """Canonical form of a stored or reported value: numbers rounded to 6 decimals, whole ones as int."""
    if is_number(value):
        r = _num(value)  # type: ignore[arg-type]
        if r == 0:
            return 0
        return int(r) if r.is_integer() and abs(r) < 2**53 else r
    return value  # type: ignore[return-value]


def value_key(value: object) -> tuple[str, object]:
    """A hashable key that keeps kinds apart (so ``True`` never matches ``1``)."""
    if value is None:
        return ("null", None)
    if isinstance(value, bool):
        return ("bool", value)
    if is_number(value):
        return ("num", normalize(value))
    return ("str", str(value))
