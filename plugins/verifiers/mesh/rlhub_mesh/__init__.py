"""rlhub-mesh: the `mesh_iou` verifier, grading CadQuery scripts against a reference part.

The host side (verifier, metrics, meshes) never builds OCC geometry; only `runner` and `brep`
do, inside sandboxed children forked from a warm worker.
"""

__version__ = "0.1.0"
