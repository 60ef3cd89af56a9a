"""Text <-> bytes at the edges. Strings carry undecodable bytes as surrogates, losslessly."""

from __future__ import annotations


def encode(s: str) -> bytes:
    return s.encode("utf-8", "surrogateescape")


def decode(b: bytes) -> str:
    return b.decode("utf-8", "surrogateescape")
