"""Every part family, in registration order."""

from .brackets import GussetBracket, LBracket, UBracket, ZBracket
from .enclosures import Enclosure
from .extrusions import HeatSink, TSlotProfile
from .gears import RingGear, SpurGear
from .hardware import Clamp, HingeLeaf
from .pipes import Elbow, Reducer, Tee
from .plates import CounterborePlate, HolePlate, SlotPlate
from .revolved import Bottle, Knob
from .shafts import KeyedShaft
from .turned import Bushing, Flange, HexNut, Pulley, Washer

FAMILIES = [HolePlate(), SlotPlate(), CounterborePlate(),
            LBracket(), UBracket(), ZBracket(), GussetBracket(),
            Flange(), Washer(), Bushing(), HexNut(), Pulley(),
            SpurGear(), RingGear(),
            Elbow(), Tee(), Reducer(),
            HeatSink(), TSlotProfile(),
            Enclosure(), KeyedShaft(), Knob(), Bottle(), HingeLeaf(), Clamp()]
