#!/usr/bin/env python3
"""Independent reference implementation of SPEC.md §3-§6 (dates, fine, accrual, payments).

Written from SPEC.md alone, in a different style from the Rust engine on purpose: it walks the
span one day at a time (the engine splits periods), uses Python's `decimal` at 60 digits and
`**` for the fractional powers (the engine uses its own series). It generates
`tests/conformance/random_cases.json`, which `tests/it/conformance.rs` replays through the library.

    python3 tests/reference/spec_reference.py            # regenerate (fixed seed)
    python3 tests/reference/spec_reference.py --check    # recompute and compare with the file

No third-party packages; runs on any Python 3.8+.
"""
import calendar
import csv
import datetime as dt
import json
import random
import sys
from decimal import ROUND_HALF_UP, Decimal as D, getcontext
from pathlib import Path

getcontext().prec = 60
ROOT = Path(__file__).resolve().parents[2]
RATES = ROOT / "schema" / "rates" / "ibc_consumo_ordinario.csv"
OUT = ROOT / "tests" / "conformance" / "random_cases.json"
DEFAULT_BRACKETS = [(6, D(100)), (12, D(75)), (18, D(50)), (24, D(25))]


def round_peso(x):
    return x.quantize(D(1), rounding=ROUND_HALF_UP)


def add_months(d, n):
    y, m0 = divmod(d.month - 1 + n, 12)
    y += d.year
    last = calendar.monthrange(y, m0 + 1)[1]
    return dt.date(y, m0 + 1, min(d.day, last))


def load_rates():
    """day -> (period key, moratorium EA %)."""
    by_day = {}
    with open(RATES, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            a = dt.date.fromisoformat(row["valid_from"])
            b = dt.date.fromisoformat(row["valid_to"])
            usury = row["usury_ea_pct"].strip()
            ea = D(usury) if usury else D(row["ibc_ea_pct"]) * D("1.5")
            d = a
            while d <= b:
                assert d not in by_day
                by_day[d] = (row["valid_from"], ea)
                d += dt.timedelta(days=1)
    return by_day


def growth(ea_pct, days):
    return (1 + ea_pct / 100) ** (D(days) / D(365)) - 1


def liquidate(case, by_day):
    adj = dt.date.fromisoformat(case["adjudicated"])
    breach = dt.date.fromisoformat(case["breach_date"])
    until = dt.date.fromisoformat(case["until"])
    brackets = DEFAULT_BRACKETS
    lockup = brackets[-1][0]
    pct = None
    for months, p in brackets:
        if breach <= add_months(adj, months):
            pct = p
            break
    if pct is None:
        return {"applies": False, "lockup_end": add_months(adj, lockup).isoformat()}
    prices = [("acquisition", D(case["acquisition_price"]))]
    if case.get("transfer_price") is not None:
        prices.append(("transfer", D(case["transfer_price"])))
    if case.get("stage_price") is not None:
        prices.append(("stage", D(case["stage_price"])))
    basis, ref = prices[0]
    for b, p in prices[1:]:
        if p > ref:
            basis, ref = b, p
    principal = round_peso(D(case["shares"]) * ref * pct / 100)

    conv = case["convention"]
    payments = sorted(
        [(dt.date.fromisoformat(p["date"]), D(p["amount"]), i) for i, p in enumerate(case["payments"])],
        key=lambda t: (t[0], t[2]),
    )
    capital, unpaid = principal, D(0)
    pieces, applied = [], []
    run = None  # [first, last, key, ea, base]

    def close():
        nonlocal run, unpaid
        if run is None:
            return
        first, last, _, ea, base = run
        days = (last - first).days + 1
        if conv == "daily-simple":
            raw = base * growth(ea, 1) * days
        else:
            raw = base * growth(ea, days)
        interest = round_peso(raw)
        unpaid += interest
        pieces.append({"from": first.isoformat(), "to": last.isoformat(), "days": days,
                       "interest": str(interest)})
        run = None

    def pay_on(day):
        nonlocal capital, unpaid
        for pdate, amount, _ in payments:
            if pdate == day:
                close()
                to_i = min(amount, unpaid)
                rest = amount - to_i
                to_c = min(rest, capital)
                unpaid -= to_i
                capital -= to_c
                applied.append({"to_interest": str(to_i), "to_capital": str(to_c),
                                "surplus": str(rest - to_c)})

    pay_on(breach)
    day = breach + dt.timedelta(days=1)
    while day <= until:
        key, ea = by_day[day]
        if run is not None and run[2] != key:
            close()
        if run is None:
            base = capital + unpaid if conv == "compound" else capital
            run = [day, day, key, ea, base]
        else:
            run[1] = day
        pay_on(day)
        day += dt.timedelta(days=1)
    close()
    interest = sum((D(p["interest"]) for p in pieces), D(0))
    return {
        "applies": True,
        "bracket_percent": str(pct),
        "basis": basis,
        "principal": str(principal),
        "pieces": pieces,
        "payments": applied,
        "interest": str(interest),
        "outstanding_capital": str(capital),
        "outstanding_interest": str(unpaid),
        "total_due": str(capital + unpaid),
    }


def rand_price(rng):
    whole = rng.choice([rng.randint(1, 5000), rng.randint(1, 100000)])
    decimals = rng.choice([0, 0, 2, 4])
    if decimals == 0:
        return str(whole)
    return f"{whole}.{rng.randint(0, 10**decimals - 1):0{decimals}d}"


def rand_date(rng, a, b):
    return a + dt.timedelta(days=rng.randint(0, (b - a).days))


def make_cases(n, seed=20261129):
    rng = random.Random(seed)
    last_rate = dt.date(2026, 10, 31)
    cases = []
    for i in range(n):
        adj = rand_date(rng, dt.date(2006, 1, 1), dt.date(2024, 12, 31))
        # mostly inside the lock-up, some past it, some on an anniversary
        if rng.random() < 0.15:
            breach = add_months(adj, rng.choice([6, 12, 18, 24])) + dt.timedelta(days=rng.choice([0, 1]))
        else:
            breach = adj + dt.timedelta(days=rng.randint(0, 800))
        breach = min(breach, last_rate)
        until = rand_date(rng, breach, min(last_rate, breach + dt.timedelta(days=rng.choice([0, 30, 400, 4000]))))
        shares = rng.choice([1, rng.randint(1, 1000), rng.randint(1, 10**6), rng.randint(1, 10**9)])
        case = {
            "id": i,
            "adjudicated": adj.isoformat(),
            "breach_date": breach.isoformat(),
            "until": until.isoformat(),
            "shares": shares,
            "acquisition_price": rand_price(rng),
            "transfer_price": rand_price(rng) if rng.random() < 0.6 else None,
            "stage_price": rand_price(rng) if rng.random() < 0.5 else None,
            "convention": rng.choice(["daily-simple", "period-effective", "compound"]),
            "payments": [],
        }
        ref = liquidate(case, BY_DAY)
        if ref["applies"] and rng.random() < 0.5:
            principal = D(ref["principal"])
            for _ in range(rng.randint(1, 3)):
                frac = rng.choice([D("0.01"), D("0.3"), D("0.7"), D("1.2")])
                amount = max(D(1), round_peso(principal * frac))
                case["payments"].append({"date": rand_date(rng, breach, until).isoformat(), "amount": str(amount)})
        case["expected"] = liquidate(case, BY_DAY)
        cases.append(case)
    return cases


BY_DAY = load_rates()

if __name__ == "__main__":
    cases = make_cases(400)
    text = json.dumps(cases, indent=1) + "\n"
    if "--check" in sys.argv:
        same = OUT.read_text() == text
        print("conformance file up to date" if same else "conformance file differs")
        sys.exit(0 if same else 1)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text)
    print(f"wrote {len(cases)} cases to {OUT.relative_to(ROOT)}")
