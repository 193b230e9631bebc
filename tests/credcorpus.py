"""A corpus of fake credentials, made afresh by each test run: valid shapes, never real secrets.

Each shape is what a vendor issues (prefix, alphabet, length) with random characters, so no
credential-shaped literal sits in this file. Where a detector checks more than a shape, the
fakes pass it: a JSON web token's parts decode to JSON, an entropy detector's strings are
random enough, a keyword's value has letters and is no sequence. `contexts()` puts each in
five places: alone, inside prose, as an assignment, inside JSON and inside YAML.
"""

from __future__ import annotations

import base64
import json
import random
import string
from typing import NamedTuple

ALNUM = string.ascii_letters + string.digits
LOWER = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"
URLSAFE = ALNUM + "-_"
B64 = ALNUM + "+/"


# detectors that find a value only under a name that says what it is
NAMED = (
    "IBM Cloud IAM Key",
    "SoftLayer Credentials",
    "Cloudant Credentials",
    "IBM COS HMAC Credentials",
)


class Fake(NamedTuple):
    detector: str  # what must find it
    name: str  # the key it sits under in an assignment, JSON or YAML
    credential: str  # what must never be stored
    alone: str  # how it is pasted on its own
    value: str  # what an assignment, JSON or YAML holds


def _r(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64url(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def _pem(rng: random.Random, label: str) -> str:
    body = "\n".join(_r(rng, B64, 64) for _ in range(4))
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----"


def _jwt(rng: random.Random) -> str:
    head = _b64url({"alg": "HS256", "typ": "JWT"})
    claims = _b64url({"sub": _r(rng, LOWER, 8), "iat": rng.randrange(10**9, 2 * 10**9)})
    return f"{head}.{claims}.{_r(rng, URLSAFE, 43)}"


def _entropic(rng: random.Random, n: int) -> str:
    while True:
        value = _r(rng, ALNUM, n)
        counts = [value.count(c) for c in set(value)]
        import math

        if -sum(k / n * math.log2(k / n) for k in counts) > 4.8:
            return value


def _tokens(rng: random.Random) -> list[tuple[str, str, str]]:
    """(detector, key name, secret) of every shape that is a token by itself."""
    r = lambda a, n: _r(rng, a, n)  # noqa: E731
    upper = string.ascii_uppercase + string.digits
    return [
        ("AWS Access Key", "aws_access_key_id", "AKIA" + r(upper, 16)),
        ("AWS Access Key", "aws_access_key_id", "ASIA" + r(upper, 16)),
        ("GitHub Token", "github_token", "ghp_" + r(ALNUM, 36)),
        ("GitHub Token", "github_token", "gho_" + r(ALNUM, 36)),
        ("GitHub Token", "github_token", "ghs_" + r(ALNUM, 36)),
        ("GitHub Fine-Grained Token", "github_token", f"github_pat_{r(ALNUM, 22)}_{r(ALNUM, 59)}"),
        ("GitHub Fine-Grained Token", "gh_pat", f"github_pat_{r(ALNUM, 22)}_{r(ALNUM, 59)}"),
        ("GitLab Token", "gitlab_token", "glpat-" + r(URLSAFE, 20)),
        ("GitLab Token", "gitlab_runner", "glrt-" + r(URLSAFE, 20)),
        (
            "Slack Token",
            "slack_token",
            f"xoxb-{r(string.digits, 12)}-{r(string.digits, 12)}-{r(LOWER, 24)}",
        ),
        (
            "Slack Token",
            "slack_token",
            f"xoxp-{r(string.digits, 11)}-{r(string.digits, 11)}-{r(LOWER, 32)}",
        ),
        (
            "Slack Token",
            "slack_webhook",
            f"https://hooks.slack.com/services/T{r(upper, 8)}/B{r(upper, 10)}/{r(ALNUM, 24)}",
        ),
        ("Stripe Access Key", "stripe_key", "sk_live_" + r(ALNUM, 24)),
        ("Stripe Access Key", "stripe_key", "rk_live_" + r(ALNUM, 24)),
        ("SendGrid API Key", "sendgrid_key", f"SG.{r(URLSAFE, 22)}.{r(URLSAFE, 43)}"),
        ("SendGrid API Key", "sendgrid_key", f"SG.{r(URLSAFE, 22)}.{r(URLSAFE, 43)}"),
        ("JSON Web Token", "session", _jwt(rng)),
        ("JSON Web Token", "session", _jwt(rng)),
        ("Twilio API Key", "twilio_sid", "AC" + r(HEX, 32)),
        ("Twilio API Key", "twilio_key", "SK" + r(HEX, 32)),
        ("Mailchimp Access Key", "mailchimp", f"{r(HEX, 32)}-us{rng.randrange(1, 21)}"),
        ("Mailchimp Access Key", "mailchimp", f"{r(HEX, 32)}-us{rng.randrange(1, 21)}"),
        ("PyPI Token", "pypi_token", "pypi-AgEIcHlwaS5vcmc" + r(URLSAFE, 80)),
        ("PyPI Token", "pypi_token", "pypi-AgENdGVzdC5weXBpLm9yZw" + r(URLSAFE, 80)),
        ("Square OAuth Secret", "square", "sq0csp-" + r(URLSAFE, 43)),
        ("Square OAuth Secret", "square", "sq0csp-" + r(URLSAFE, 43)),
        ("Discord Bot Token", "discord", f"M{r(ALNUM, 23)}.{r(ALNUM, 6)}.{r(URLSAFE, 27)}"),
        ("Discord Bot Token", "discord", f"N{r(ALNUM, 23)}.{r(ALNUM, 6)}.{r(URLSAFE, 27)}"),
        ("Telegram Bot Token", "telegram", f"{rng.randrange(10**8, 10**9)}:{r(URLSAFE, 35)}"),
        ("Telegram Bot Token", "telegram", f"{rng.randrange(10**8, 10**9)}:{r(URLSAFE, 35)}"),
        ("Azure Storage Account access key", "azure", "AccountKey=" + r(B64, 86) + "=="),
        ("Azure Storage Account access key", "azure", "AccountKey=" + r(B64, 86) + "=="),
        ("Artifactory Credentials", "artifactory", "AKC" + r(ALNUM, 70)),
        ("Artifactory Credentials", "artifactory", "AKC" + r(ALNUM, 70)),
        ("OpenAI Token", "openai_key", f"sk-{r(ALNUM, 20)}T3BlbkFJ{r(ALNUM, 20)}"),
        ("OpenAI Token", "openai_key", f"sk-{r(ALNUM, 20)}T3BlbkFJ{r(ALNUM, 20)}"),
        ("OpenAI API Key", "openai_key", "sk-proj-" + r(URLSAFE, 156)),
        ("OpenAI API Key", "openai_key", "sk-svcacct-" + r(URLSAFE, 156)),
        ("Anthropic API Key", "anthropic_key", f"sk-ant-api03-{r(URLSAFE, 93)}AA"),
        ("Anthropic API Key", "anthropic_key", f"sk-ant-admin01-{r(URLSAFE, 93)}AA"),
        ("npm Access Token", "npm_token", "npm_" + r(ALNUM, 36)),
        ("npm Access Token", "npm_token", "npm_" + r(ALNUM, 36)),
        ("Google API Key", "google_key", "AIza" + r(URLSAFE, 35)),
        ("Google API Key", "google_key", "AIza" + r(URLSAFE, 35)),
        ("IBM Cloud IAM Key", "ibm_cloud_iam_key", r(URLSAFE, 44)),
        ("IBM Cloud IAM Key", "iam_api_key", r(URLSAFE, 44)),
        ("SoftLayer Credentials", "softlayer_api_key", r(LOWER, 64)),
        ("SoftLayer Credentials", "sl_api_key", r(LOWER, 64)),
        ("Cloudant Credentials", "cloudant_password", r(HEX, 64)),
        ("Cloudant Credentials", "cl_api_key", r(string.ascii_lowercase, 24)),
        ("IBM COS HMAC Credentials", "secret_access_key", r(HEX, 48)),
        ("IBM COS HMAC Credentials", "cos_hmac_secret_access_key", r(HEX, 48)),
    ]


def fakes(seed: int | None = None) -> list[Fake]:
    """Every fake, two or more per detector."""
    rng = random.Random(seed)
    found = [Fake(d, n, s, f"{n}: {s}" if d in NAMED else s, s) for d, n, s in _tokens(rng)]
    for _ in range(2):
        secret = _r(rng, B64, 40)
        found.append(Fake("AWS Access Key", "aws_secret_access_key", secret,
                          f'aws_secret_access_key = "{secret}"', secret))  # fmt: skip
    for label in ("RSA PRIVATE KEY", "OPENSSH PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY"):
        pem = _pem(rng, label)
        found.append(Fake("Private Key", "private_key", pem, pem, pem))
    for scheme in ("postgres", "https"):
        secret = _r(rng, ALNUM, 16)
        host = f"@db.{_r(rng, LOWER, 6)}.example.com:5432/app"
        url = f"{scheme}://" + ":".join(("deploy", secret)) + host
        found.append(Fake("Basic Auth Credentials", "database_url", secret, url, url))
    for name in ("db_password", "api_key", "client_secret"):
        secret = f"{_r(rng, ALNUM, 10)}-{_r(rng, ALNUM, 8)}"
        found.append(Fake("Secret Keyword", name, secret, f"{name}: {secret}", secret))
    for name in ("service_token", "webhook_signing"):
        secret = _entropic(rng, 40)
        found.append(Fake("Base64 High Entropy String", name, secret, f'"{secret}"', secret))
    return found


def contexts(fake: Fake) -> dict[str, str]:
    """The fake alone, inside prose, as an assignment, inside JSON and inside YAML."""
    name, value, alone = fake.name, fake.value, fake.alone
    if "\n" in value:
        yaml = f"{name}: |\n" + "".join(f"  {line}\n" for line in value.split("\n"))
    else:
        yaml = f"{name}: {value}\n"
    return {
        "alone": alone,
        "prose": f"Earlier today I pasted {alone} into the settings, and the deploy still failed.",
        "assignment": f"{name.upper()}={value}",
        "json": json.dumps({name: value, "note": "the staging one"}),
        "yaml": yaml.rstrip("\n"),
    }


def text(corpus: list[Fake]) -> str:
    """Every fake in every context, one block each, blank lines between."""
    return "\n\n".join(block for fake in corpus for block in contexts(fake).values()) + "\n"


def one_line(corpus: list[Fake]) -> str:
    """Every fake on one line (for one-line fields): prose, or JSON for a key block."""
    parts = [contexts(f)["json" if "\n" in f.credential else "prose"] for f in corpus]
    return " ; ".join(parts)


def files(corpus: list[Fake]) -> dict[str, str]:
    """The corpus as files, each place in a file of its kind (YAML keys made unique), and all of
    it in one text file."""
    out = {"corpus.txt": text(corpus)}
    kinds = {"alone": "alone.txt", "prose": "prose.md", "assignment": "assignment.properties",
             "json": "lines.json", "yaml": "config.yaml"}  # fmt: skip
    for place, name in kinds.items():
        blocks = [contexts(f)[place] for f in corpus]
        if place == "yaml":
            blocks = [b.replace(f"{f.name}:", f"{f.name}_{i}:", 1) for i, (f, b) in
                      enumerate(zip(corpus, blocks, strict=True))]  # fmt: skip
        out[name] = "\n".join(blocks) + "\n"
    return out
