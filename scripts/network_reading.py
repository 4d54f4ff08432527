"""How `LightNetworkDecider` names a colour from the light network's class probabilities, for
the scripts that read its outputs in Python (train_light_network.py, fusion_check.py)."""
import numpy as np

CLASSES = ["red", "yellow", "green", "unknown"]
# A colour named with less probability is `unknown`; green is not named when red is this probable.
MINIMUM, VETO = 0.5, 0.2


def read(p, minimum=MINIMUM, veto=VETO):
    """The colour `LightNetworkDecider` names from class probabilities `p`."""
    best = int(np.argmax(p))
    if CLASSES[best] == "green" and p[0] >= veto:
        return "unknown"
    if CLASSES[best] != "unknown" and p[best] < minimum:
        return "unknown"
    return CLASSES[best]
