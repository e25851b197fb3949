"""The validations (``wlansim validate NAME``): the simulator beside a model or another
simulator, their agreement statements decided as claims like a study's."""
