"""Evidence: claims over runs. The paper reproductions (``studies/``) and the validations
(``validations/``) are the same thing: claim records decided by one verdict engine
(:mod:`.claims`, over the statistics of :mod:`.stats`) and written as reports
(:mod:`.report`); :mod:`.study` runs a study; ``ns2/`` writes, runs and reads ns-2.35
scripts.

Nothing heavy is imported here: ``import wlansim.evidence`` stays cheap.
"""
