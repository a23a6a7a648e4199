"""Setting up a machine for the course.

* :mod:`.doctor`: is this setup ready, and if not, what to do (``make doctor``);
* :mod:`.bootstrap`: the course next to a cloud notebook's PyTorch;
* :mod:`.lab`: JupyterLab on the course (``make lab``);
* :mod:`.git`: notebooks in git, outputs kept out of commits.
"""
