"""Mutation testing of one module against its mirrored tests, on a fixed-seed sample of its mutants.

Run from anywhere (it works in the checkout)::

    python scripts/mutation.py folio_desktop/docx/editing/operations.py tests/unit/docx/editing \\
        --sample 80 --seed 26

mutmut (the dev extra) copies the checkout into ``mutants/``, writes every mutant of MODULE into
that copy, records which tests of TESTS_DIR reach which function, and runs, for each mutant of the
sample, the tests that reach its function (stopping at the first failure). The base settings are
``[tool.mutmut]`` in pyproject.toml; this script narrows them for the run (only MODULE is mutated,
only TESTS_DIR runs) in memory, so the checkout's files stay as they are.

Prints each mutant of the sample with its outcome, then ``killed/total``: a mutant is killed when a
test failed (or ran out of time) with it in place. ``mutmut show NAME`` (from the checkout) prints a
mutant's diff. One worker by default (--children): the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CAUGHT = ("killed", "timeout", "caught by type check", "segfault")


def _configure(module: str, tests_dir: str) -> None:
    """The [tool.mutmut] settings, narrowed to this module and these tests (mutmut reads its config once)."""
    from mutmut import configuration

    base = configuration._load_config()
    configuration._config = replace(base, only_mutate=[module], pytest_add_cli_args_test_selection=[tests_dir])


def _mutant_names(module: Path, children: int) -> list[str]:
    from mutmut import __main__ as mm
    from mutmut.mutation.data import SourceFileMutationData

    mm.set_mutant_under_test("mutant_generation")
    os.makedirs("mutants", exist_ok=True)
    mm.copy_src_dir()
    mm.copy_also_copy_files()
    mm.setup_source_paths()
    mm.create_mutants(children)
    data = SourceFileMutationData(path=module)
    data.load()
    return sorted(data.exit_code_by_key)


def _outcomes(module: Path, names: list[str]) -> dict[str, str]:
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.stats import status_by_exit_code

    data = SourceFileMutationData(path=module)
    data.load()
    return {name: status_by_exit_code[data.exit_code_by_key.get(name)] for name in names}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("module", help="the module to mutate, as a path from the checkout's root")
    ap.add_argument("tests_dir", help="its mirrored tests folder, from the checkout's root")
    ap.add_argument("--sample", type=int, default=0, help="how many mutants to run (default: all of them)")
    ap.add_argument("--seed", type=int, default=26, help="the sample's seed (default 26)")
    ap.add_argument("--children", type=int, default=1, help="mutants run at once (default 1)")
    args = ap.parse_args(argv)

    os.chdir(ROOT)
    module = Path(args.module)
    if not module.is_file() or not Path(args.tests_dir).is_dir():
        ap.error("MODULE must be a file and TESTS_DIR a folder, both relative to the checkout")
    _configure(str(module), args.tests_dir)
    names = _mutant_names(module, args.children)
    if not names:
        print(f"mutmut made no mutants of {module}")
        return 1
    sample = sorted(random.Random(args.seed).sample(names, args.sample)) if 0 < args.sample < len(names) else names

    from mutmut import __main__ as mm

    try:
        mm._run(sample, args.children)
    except SystemExit as exc:  # mutmut exits when the tests fail without any mutant
        if exc.code:
            raise
    outcomes = _outcomes(module, sample)
    print()
    for name in sample:
        print(f"{outcomes[name]:>22}  {name}")
    caught = sum(1 for status in outcomes.values() if status in CAUGHT)
    print(f"\n{module} against {args.tests_dir}: {len(sample)} of {len(names)} mutants (seed {args.seed})")
    print(f"killed {caught}/{len(sample)} ({100 * caught / len(sample):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
