export { VIES_FAULTS, type ViesFaultCode } from './vies-faults';
export { VIES_WSDL_PATH } from './wsdl';
export {
  EU_TEST_TABLE,
  SIMULATOR_SCENARIO_VAT_IDS,
  SLOW_VAT_NUMBER,
  VIES_SIMULATOR_PATH,
  startViesSimulator,
  type SimulatedAnswer,
  type SimulatorTable,
  type ViesSimulator,
  type ViesSimulatorOptions,
} from './vies-simulator';
