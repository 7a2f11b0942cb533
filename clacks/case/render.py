"""Pictures of the parts and the assembled exchange, drawn from the model itself.

Each solid is tessellated and its triangles are rasterised with a depth buffer, so that
whatever is nearer the viewer hides what is behind it (sorting whole triangles back to
front, the painter's way, lets a long wall's triangles cover the stand-offs before it).
Faces are shaded by how squarely they face the light, and the outlines, where the depth
jumps, are drawn dark, in an oblique view from the South-West. Only numpy and Pillow are
needed, no display and no OpenGL, so the pictures come out the same on any machine with
the same model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import build123d as bd
import numpy as np
from PIL import Image

RGB = tuple[int, int, int]
LIGHT = np.array([-0.35, -0.55, 0.76])
SUPERSAMPLE = 2
OUTLINE = 0.8  # a step in depth this large between neighbouring pixels is an edge, mm
INK = np.array([40, 40, 40])


@dataclass(frozen=True)
class Piece:
    solid: bd.Shape[Any]
    colour: RGB


def triangles(solid: bd.Shape[Any], tolerance: float = 0.15) -> np.ndarray:
    """The surface as an array of triangles, shape (n, 3, 3)."""
    vertices, faces = solid.tessellate(tolerance, 0.3)
    points = np.array([(v.X, v.Y, v.Z) for v in vertices], dtype=float)
    result: np.ndarray = points[np.array(faces, dtype=int)]
    return result


def view_matrix(azimuth: float, elevation: float) -> np.ndarray:
    """Rows: screen right, screen up, towards the viewer."""
    a, e = math.radians(azimuth), math.radians(elevation)
    towards = np.array([math.sin(a) * math.cos(e), -math.cos(a) * math.cos(e), math.sin(e)])
    right = np.array([math.cos(a), math.sin(a), 0.0])
    up = np.cross(towards, right)
    return np.array([right, up, towards])


def render(
    pieces: list[Piece],
    path: Path,
    size: tuple[int, int] = (900, 640),
    azimuth: float = -30.0,
    elevation: float = 35.0,
) -> None:
    """Draw ``pieces`` into the PNG ``path``."""
    meshes = [(triangles(piece.solid), piece.colour) for piece in pieces]
    image = draw(meshes, size, azimuth, elevation)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, optimize=True)


def draw(
    meshes: list[tuple[np.ndarray, RGB]],
    size: tuple[int, int],
    azimuth: float,
    elevation: float,
) -> Image.Image:
    """The triangles of each mesh (shape (n, 3, 3)) in its colour, seen from the azimuth
    and elevation given, filling ``size`` pixels."""
    view = view_matrix(azimuth, elevation)
    light = LIGHT / np.linalg.norm(LIGHT)
    all_tris, all_colours = [], []
    for tris, colour in meshes:
        normals = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
        length = np.linalg.norm(normals, axis=1)
        keep = length > 1e-12
        tris, normals = tris[keep], normals[keep] / length[keep, None]
        facing = normals @ view[2] > -1e-9  # the faces turned away are hidden anyway
        tris, normals = tris[facing], normals[facing]
        shade = 0.35 + 0.65 * np.clip(normals @ light, 0.0, 1.0)
        all_tris.append(tris)
        all_colours.append(np.clip(shade[:, None] * np.array(colour, dtype=float), 0, 255))
    screen = np.concatenate(all_tris) @ view.T  # (n, 3, 3): x right, y up, z towards us
    colours = np.concatenate(all_colours)
    width, height = size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE
    low = screen[:, :, :2].reshape(-1, 2).min(axis=0)
    high = screen[:, :, :2].reshape(-1, 2).max(axis=0)
    scale = 0.92 * min(width / (high[0] - low[0]), height / (high[1] - low[1]))
    middle = (low + high) / 2
    xs = width / 2 + (screen[:, :, 0] - middle[0]) * scale
    ys = height / 2 - (screen[:, :, 1] - middle[1]) * scale
    depth = np.full((height, width), -np.inf)
    pixels = np.full((height, width, 3), 255.0)
    for n in range(len(screen)):
        _fill(pixels, depth, xs[n], ys[n], screen[n, :, 2], colours[n])
    step = np.zeros((height, width), dtype=bool)
    finite = np.where(np.isfinite(depth), depth, -1e6)
    step[:, 1:] |= np.abs(np.diff(finite, axis=1)) > OUTLINE
    step[1:, :] |= np.abs(np.diff(finite, axis=0)) > OUTLINE
    pixels[step] = INK
    image = Image.fromarray(pixels.astype(np.uint8), "RGB")
    return image.resize(size, Image.Resampling.LANCZOS)


def _fill(
    pixels: np.ndarray,
    depth: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    z: np.ndarray,
    colour: np.ndarray,
) -> None:
    """Rasterise one triangle: the pixel centres inside it that are nearer than what
    is drawn there already."""
    height, width = depth.shape
    left, right = max(math.floor(x.min()), 0), min(math.ceil(x.max()), width - 1)
    top, bottom = max(math.floor(y.min()), 0), min(math.ceil(y.max()), height - 1)
    if left > right or top > bottom:
        return
    area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0])
    if abs(area) < 1e-12:
        return
    px = np.arange(left, right + 1) + 0.5
    py = (np.arange(top, bottom + 1) + 0.5)[:, None]
    w0 = ((x[1] - px) * (y[2] - py) - (x[2] - px) * (y[1] - py)) / area
    w1 = ((x[2] - px) * (y[0] - py) - (x[0] - px) * (y[2] - py)) / area
    w2 = 1.0 - w0 - w1
    edge = -1e-6
    at = w0 * z[0] + w1 * z[1] + w2 * z[2]
    region = depth[top : bottom + 1, left : right + 1]
    nearer = (w0 >= edge) & (w1 >= edge) & (w2 >= edge) & (at > region)
    region[nearer] = at[nearer]
    pixels[top : bottom + 1, left : right + 1][nearer] = colour
