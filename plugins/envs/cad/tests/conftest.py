import pytest

from rlhub_cad.families import FAMILIES


@pytest.fixture(scope="session")
def built_references():
    """Every family's reference (3 seeds) plus its wrong answers, built once in one child process."""
    import random

    from rlhub_cad.build import build_all
    from rlhub_cad.env import CadEnvironment

    jobs = []
    for fam in FAMILIES:
        env = CadEnvironment(f"cad/{fam.name}-dimensioned-v1", fam, "dimensioned")
        for seed in range(3):
            p = env.sample(random.Random(seed))
            jobs.append((fam, seed, "reference", p, fam.script(p)))
            jobs.append((fam, seed, "missing", p, fam.script(p, omit=True)))
            jobs.append((fam, seed, "twice", fam.scaled(p, 2.0), fam.script(fam.scaled(p, 2.0))))
    results = build_all([j[-1] for j in jobs])
    return [(*job, res) for job, res in zip(jobs, results)]


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    """The installed registry, with a mesh cache of its own (nothing from another run is reused)."""
    import hub

    mp = pytest.MonkeyPatch()
    mp.setenv("RLHUB_MESH_CACHE", str(tmp_path_factory.mktemp("mesh-cache")))
    yield hub.load()
    mp.undo()


@pytest.fixture(scope="module")
def grade_saved(catalog):
    """grade_saved(env, path): the verdict of a saved response (a red team's CadQuery script) on
    seed 0 of `cad/<env>`."""

    def grade(env: str, path):
        label = {"env": f"cad/{env}", "seed": 0}
        return catalog.verify(label, path.read_text(), task=catalog.task(label))

    return grade
