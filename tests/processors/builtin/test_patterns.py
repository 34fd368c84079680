"""The shared detection patterns: what each kind finds, what its validator refuses, and how overlaps resolve."""

from __future__ import annotations

import pytest

from processors.builtin.patterns import (
    CATEGORY,
    GROUPS,
    MAX_SPAN,
    PATTERNS,
    Match,
    btc_address_ok,
    expand_kinds,
    find_all,
    iban_ok,
    ip_ok,
    keep_disjoint,
    luhn_ok,
    max_span,
    resolve_overlaps,
)

BECH32 = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
ETH = "0x52908400098527886E0F7030069857D2E4169EE7"


def found(text: str, kinds: list[str] | None = None) -> list[tuple[str, str]]:
    return [(m.kind, m.value) for m in find_all(text, kinds)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mail jo.doe+x@mail.example.co.uk now", [("email", "jo.doe+x@mail.example.co.uk")]),
        ("call +1 415 555 2671 today", [("phone", "+1 415 555 2671")]),
        ("call (415) 555-2671", [("phone", "(415) 555-2671")]),
        ("call 415-555-2671.", [("phone", "415-555-2671")]),
        ("call +442071838750", [("phone", "+442071838750")]),
        ("card 4111 1111 1111 1111 ok", [("credit-card", "4111 1111 1111 1111")]),
        ("card 5500005555555559", [("credit-card", "5500005555555559")]),
        ("ssn 123-45-6789", [("ssn", "123-45-6789")]),
        ("iban DE89 3704 0044 0532 0130 00 THEN", [("iban", "DE89 3704 0044 0532 0130 00")]),
        ("iban GB82WEST12345698765432", [("iban", "GB82WEST12345698765432")]),
        ("host 192.168.1.1 up", [("ipv4", "192.168.1.1")]),
        ("host 2001:db8::8a2e:370:7334 up", [("ipv6", "2001:db8::8a2e:370:7334")]),
        ("key sk-proj-abcdefghijklmnopqrstuvwxyz123456", [("openai-key", "sk-proj-abcdefghijklmnopqrstuvwxyz123456")]),
        ("aws AKIAIOSFODNN7EXAMPLE", [("aws-access-key", "AKIAIOSFODNN7EXAMPLE")]),
        ("gh ghp_" + "a" * 36, [("github-token", "ghp_" + "a" * 36)]),
        ("slack xoxb-123456789012-abcdefghijkl", [("slack-token", "xoxb-123456789012-abcdefghijkl")]),
        ("google AIza" + "B" * 35, [("google-api-key", "AIza" + "B" * 35)]),
        ("see https://example.com/a?b=c, and", [("url", "https://example.com/a?b=c")]),
        ("btc 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", [("btc-address", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")]),
        ("btc " + BECH32, [("btc-address", BECH32)]),
        ("eth " + ETH, [("eth-address", ETH)]),
        ("id 123e4567-e89b-12d3-a456-426614174000", [("uuid", "123e4567-e89b-12d3-a456-426614174000")]),
    ],
)
def test_each_kind_finds_its_values(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


def test_private_key_blocks_are_found_whole_and_unterminated_ones_to_the_end() -> None:
    block = "-----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY-----"
    assert found(f"x {block} after", ["private-key"]) == [("private-key", block)]
    assert found("x -----BEGIN PRIVATE KEY-----\nMIIab", ["private-key"]) == [
        ("private-key", "-----BEGIN PRIVATE KEY-----\nMIIab")
    ]


def test_a_jwt_is_found() -> None:
    token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
    assert found(f"token {token} end", ["jwt"]) == [("jwt", token)]


@pytest.mark.parametrize(
    "text",
    [
        "card 4111 1111 1111 1112",  # fails Luhn
        "iban DE89 3704 0044 0532 0130 01",  # fails mod-97
        "host 999.1.1.1 and 1.2.3.4.5",  # not addresses
        "at 12:30:45 on 2024-01-15",  # times and dates are not phones or IPv6
        "btc 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb",  # bad checksum
        "ssn 000-12-3456",  # area 000 does not exist
        "a plain sentence with no secrets at all",
    ],
)
def test_validators_refuse_lookalikes(text: str) -> None:
    kinds = [k for k in ("credit-card", "iban", "ipv4", "ipv6", "btc-address", "ssn", "email", "url")]
    assert found(text, kinds) == []


def test_validators_directly() -> None:
    assert luhn_ok("4111-1111-1111-1111") and not luhn_ok("4111111111111112") and not luhn_ok("0000000000000000")
    assert iban_ok("DE89 3704 0044 0532 0130 00") and not iban_ok("DE89 3704 0044 0532 0130")  # wrong length
    assert btc_address_ok("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy")
    assert not btc_address_ok("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz")
    assert ip_ok("::1") and ip_ok("10.0.0.1") and not ip_ok("::") and not ip_ok("12:30:45")


def test_overlaps_resolve_to_the_longest_match() -> None:
    text = "card 4111 1111 1111 1111"
    assert found(text, ["credit-card", "phone"]) == [("credit-card", "4111 1111 1111 1111")]
    everything = find_all(text, ["credit-card", "phone"], overlapping=True)
    assert {m.kind for m in everything} >= {"credit-card"}
    assert resolve_overlaps([Match("a", 0, 5, "xxxxx"), Match("b", 2, 9, "yyyyyyy"), Match("c", 9, 10, "z")]) == [
        Match("b", 2, 9, "yyyyyyy"),
        Match("c", 9, 10, "z"),
    ]


def test_keep_disjoint_keeps_matches_in_rank_order_and_returns_them_in_text_order() -> None:
    ranked = [Match("c", 9, 10, "z"), Match("a", 0, 5, "xxxxx"), Match("b", 2, 9, "yyyyyyy")]
    assert keep_disjoint(ranked) == [Match("a", 0, 5, "xxxxx"), Match("c", 9, 10, "z")]


def test_an_ssn_is_an_ssn_not_a_phone() -> None:
    assert found("ssn 123-45-6789", ["pii"]) == [("ssn", "123-45-6789")]


def test_groups_categories_and_unknown_kinds() -> None:
    assert set(expand_kinds(["ip-address"])) == {"ipv4", "ipv6"}
    assert set(GROUPS["pii"]) <= set(PATTERNS)
    assert CATEGORY["aws-access-key"] == "api-key" and Match("ipv4", 0, 1, "x").category == "ip-address"
    assert Match("email", 0, 1, "x").category == "email"
    with pytest.raises(KeyError, match="unknown pattern kind 'nope'"):
        find_all("x", ["nope"])
    assert set(MAX_SPAN) == set(PATTERNS)
    assert max_span(["ssn"]) == MAX_SPAN["ssn"] and max_span(["pii"]) >= MAX_SPAN["iban"]


def test_a_greedy_iban_match_shrinks_back_to_the_valid_number() -> None:
    assert found("pay DE89 3704 0044 0532 0130 00 ABC now", ["iban"]) == [("iban", "DE89 3704 0044 0532 0130 00")]


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("GITLAB_TOKEN=glpat-0jxGdqH0Tz0IpZkWxcnW", "gitlab-token", "glpat-0jxGdqH0Tz0IpZkWxcnW"),
        (
            "HF_TOKEN=hf_S6owiQWJDrH29xIXPwYT1m0QLf2YrKWumr",
            "huggingface-token",
            "hf_S6owiQWJDrH29xIXPwYT1m0QLf2YrKWumr",
        ),
        (
            "_authToken=npm_fpv0SBZyhlLBWOeDC2k3Ei29oJDrcWgvVm2A",
            "npm-token",
            "npm_fpv0SBZyhlLBWOeDC2k3Ei29oJDrcWgvVm2A",
        ),
        ("SID SK38a0be18e6321f91ee7e102cff621a85", "twilio-key", "SK38a0be18e6321f91ee7e102cff621a85"),
        (
            "DATABASE_PASSWORD=giBRaj4WdIgJCI0NVBKQ9NGquhcR5Bvx",
            "secret-assignment",
            "PASSWORD=giBRaj4WdIgJCI0NVBKQ9NGquhcR5Bvx",
        ),
    ],
)
def test_more_secret_kinds(text: str, kind: str, value: str) -> None:
    assert found(text, [kind]) == [(kind, value)]
    (match,) = find_all(text, ["secrets"])  # overlapping secret kinds resolve to one, the longest
    assert value in match.value


@pytest.mark.parametrize(
    "text",
    [
        'api_key = os.environ["OPENAI_API_KEY"]',
        'api_key = "YOUR_API_KEY_HERE"',
        "password: ${DB_PASSWORD}",
        'secret_key = get_secret("django-secret-key")',
        "STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx (placeholder)",
        "Stripe publishable key pk_live_hFEMyEdRAYtcptmPRzUl3Ju4 goes in the frontend.",
        "The secret: everything is better with tests",
    ],
)
def test_placeholders_and_code_are_no_secrets(text: str) -> None:
    assert found(text, ["secrets"]) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Your IMEI is 356938035643809; keep it.", []),  # Luhn-valid, but no card network issues it
        ("Amex 3782 822463 10005 on file", [("credit-card", "3782 822463 10005")]),
        ("Population: 8 336 817 in 2022", []),
        ("The model number 987-65-4321 is on the box.", []),
        ("Blocked 198.51.100.14 and 91.198.174.192", [("ipv4", "198.51.100.14"), ("ipv4", "91.198.174.192")]),
        ("v10.0.0.1 tag was deleted", []),
        ("Reach +44 7700 900123 or +49 (0)89 1234567", [("phone", "+44 7700 900123"), ("phone", "+49 (0)89 1234567")]),
        ("UK office 020 7946 0018", [("phone", "020 7946 0018")]),
        ("SSN 219099999 on the W-2 form", [("ssn", "219099999")]),
        ("reach <tom_o'neil@mail.example.org> now", [("email", "tom_o'neil@mail.example.org")]),
        ("Export logo@2x.png for retina", []),
    ],
)
def test_pii_edge_cases(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text, ["pii"]) == expected
