"""Every part family, in registration order."""

from .brackets import GussetBracket, LBracket, UBracket, ZBracket
from .plates import CounterborePlate, HolePlate, SlotPlate

FAMILIES = [HolePlate(), SlotPlate(), CounterborePlate(),
            LBracket(), UBracket(), ZBracket(), GussetBracket()]
