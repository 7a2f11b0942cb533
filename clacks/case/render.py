"""Pictures of the parts and the assembled exchange, drawn from the model itself.

Each solid is tessellated and its triangles are drawn back to front (the painter's
way), shaded by how squarely they face the light, in an oblique view from the
South-West. Only numpy and Pillow are needed, no display and no OpenGL, so the pictures
come out the same on any machine with the same model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import build123d as bd
import numpy as np
from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
LIGHT = np.array([-0.35, -0.55, 0.76])
SUPERSAMPLE = 2


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
    view = view_matrix(azimuth, elevation)
    light = LIGHT / np.linalg.norm(LIGHT)
    all_tris, all_colours = [], []
    for piece in pieces:
        tris = triangles(piece.solid)
        normals = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
        length = np.linalg.norm(normals, axis=1)
        keep = length > 1e-12
        tris, normals = tris[keep], normals[keep] / length[keep, None]
        facing = normals @ view[2]
        tris, normals = tris[facing > -1e-9], normals[facing > -1e-9]
        shade = 0.35 + 0.65 * np.clip(normals @ light, 0.0, 1.0)
        colour = np.array(piece.colour, dtype=float)
        all_tris.append(tris)
        all_colours.append(np.clip(shade[:, None] * colour, 0, 255))
    tris = np.concatenate(all_tris)
    colours = np.concatenate(all_colours).astype(int)
    screen = tris @ view.T  # (n, 3, 3): x right, y up, z towards the viewer
    order = np.argsort(screen[:, :, 2].mean(axis=1))
    width, height = size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE
    low = screen[:, :, :2].reshape(-1, 2).min(axis=0)
    high = screen[:, :, :2].reshape(-1, 2).max(axis=0)
    scale = 0.92 * min(width / (high[0] - low[0]), height / (high[1] - low[1]))
    middle = (low + high) / 2
    image = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for n in order:
        xy = [
            (width / 2 + (x - middle[0]) * scale, height / 2 - (y - middle[1]) * scale)
            for x, y in screen[n, :, :2]
        ]
        fill = tuple(int(c) for c in colours[n])
        draw.polygon(xy, fill=fill, outline=fill)
    image = image.resize(size, Image.Resampling.LANCZOS)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, optimize=True)
