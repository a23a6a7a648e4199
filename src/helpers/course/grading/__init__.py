"""Grading submitted homework, step by step (``python -m helpers grade``).

* :mod:`.grader`: the chain from a folder of submissions to grades (start here: its docstring
  holds the threat model);
* :mod:`.collect`: finding the submissions; :mod:`.submission`: grading one of them;
* :mod:`.report`: what grading writes; :mod:`.escape`: text from a submission made safe to show;
* :mod:`.examiner`: decides one submission's outcomes, never running its code;
* :mod:`.runner`: the process that does run answer code, inside the OS sandbox of
  :mod:`.sandbox`, within :mod:`.bounds`;
* :mod:`.probes` and :mod:`.plain`: what crosses from the runner to the examiner (plain data);
* :mod:`.outcome`: what grading found, as data (an exercise's outcome, a submission's result,
  a control, the limits).
"""
