"""Tools that work on the course's notebooks as files.

* :mod:`.clean`: the one notebook-cleaning function and its metadata allow-list;
* :mod:`.execute` and :mod:`.waits`: running notebooks (the tests, ``make course``);
* :mod:`.html`: the HTML copies, which load nothing from another host;
* :mod:`.outline`: navigation, slides, run times and the README's course map;
* :mod:`.guide`: the instructor guide's day plans;
* :mod:`.translate`, :mod:`.terms` and :mod:`.edition`: the translated editions.
"""
