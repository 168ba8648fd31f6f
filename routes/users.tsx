/** users: not built yet (issue #15); the construction page until its island lands. */
import ConstructionRoute from "./construction.tsx";

export default ConstructionRoute;
