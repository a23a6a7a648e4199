"""Shared code for the course "Training with PyTorch on a GPU".

Small modules with obvious names; import what you need, e.g.::

    from helpers.device import get_device
    from helpers.data import load_iris_split
    from helpers.models import IrisMLP
    from helpers.training import train

Nothing here prints or touches the GPU on import.
"""

__version__ = "0.1.0"
